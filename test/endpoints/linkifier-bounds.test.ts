import t from 'tap';
import { ApiClient, badRequest } from '../helpers/http';
import { RealmFile } from '../helpers/realm-file';
import { startServer } from '../helpers/server';

// Linkifier patterns run inside every render of the realm's shard: they run on a linear-time
// engine (the public server uses RE2), so a pattern that engine cannot run is refused.
const NOT_LINEAR = badRequest(
  'Linkifier pattern cannot be matched in linear time: backreferences, lookaround, case-insensitive flags and repetition counts above 16 are not supported.',
);

t.test('linkifier patterns run in linear time', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);

  t.test('backreferences and lookaround are refused when added or changed', async (t) => {
    for (const pattern of ['(?P<x>a)(?P=x)', '#(?P<id>[0-9]+)(?=x)', '(?<=x)#(?P<id>[0-9]+)']) {
      const added = await api.post('/realm/filters', { pattern, url_template: 'https://x.test/{id}' });
      t.strictSame({ status: added.status, body: added.body }, { status: 400, body: NOT_LINEAR }, pattern);
    }
    const added = await api.post('/realm/filters', { pattern: 'T(?P<id>[0-9]+)', url_template: 'https://x.test/{id}' });
    t.equal(added.status, 200);
    const id = String(added.body['id']);
    const changed = await api.call('PATCH', `/realm/filters/${id}`, { pattern: '(?P<id>a)(?P=id)', url_template: 'https://x.test/{id}' });
    t.strictSame({ status: changed.status, body: changed.body }, { status: 400, body: NOT_LINEAR });
    t.equal((await api.call('DELETE', `/realm/filters/${id}`)).status, 200);
  });

  t.test('a pattern longer than 1000 characters is refused', async (t) => {
    const res = await api.post('/realm/filters', { pattern: `#(?P<id>${'[0-9]'.repeat(250)})`, url_template: 'https://x.test/{id}' });
    t.strictSame(res.body, badRequest('Linkifier pattern is too long (limit: 1000 characters).'));
  });

  t.test('alternation under repetition matches a crafted message at once', async (t) => {
    // On a backtracking engine this pattern takes 2^n steps on n letters `a` and no `!`.
    const added = await api.post('/realm/filters', { pattern: '(?P<id>(a|a)*)!', url_template: 'https://x.test/{id}' });
    t.equal(added.status, 200);
    const crafted = await api.post('/messages/render', { content: `${'a'.repeat(60)}?` });
    t.strictSame(crafted.body, { result: 'success', msg: '', rendered: `<p>${'a'.repeat(60)}?</p>` });
    const linked = await api.post('/messages/render', { content: 'aaa! b' });
    t.strictSame(linked.body, { result: 'success', msg: '', rendered: '<p><a href="https://x.test/aaa">aaa!</a> b</p>' });
    t.equal((await api.call('DELETE', `/realm/filters/${String(added.body['id'])}`)).status, 200);
  });

  t.test('every match of a long message is linked, each found once', async (t) => {
    const added = await api.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://x.test/{id}' });
    t.equal(added.status, 200);
    const ids = Array.from({ length: 300 }, (_, i) => i + 1);
    const rendered = await api.post('/messages/render', { content: ids.map((id) => `see #${id} and *x* #${id}b.`).join(' ') });
    const expected = ids.map((id) => `see <a href="https://x.test/${id}">#${id}</a> and <em>x</em> #${id}b.`).join(' ');
    t.strictSame(rendered.body, { result: 'success', msg: '', rendered: `<p>${expected}</p>` });
    t.equal((await api.call('DELETE', `/realm/filters/${String(added.body['id'])}`)).status, 200);
  });

  t.test('a stored pattern the engine cannot run is skipped, the others still apply', async (t) => {
    const file = new RealmFile(server);
    t.teardown(() => file.close());
    file.run('INSERT INTO linkifiers (pattern, url_template) VALUES (?, ?)', '(?P<w>x)(?P=w)', 'https://x.test/{w}');
    // Adding through the API makes the shard read the linkifiers again.
    const added = await api.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://x.test/{id}' });
    t.equal(added.status, 200);
    const rendered = await api.post('/messages/render', { content: 'xx #12' });
    t.strictSame(rendered.body, { result: 'success', msg: '', rendered: '<p>xx <a href="https://x.test/12">#12</a></p>' });
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'xx #7', content: 'xx' });
    t.equal(sent.status, 200);
    const fetched = await api.get(`/messages/${String(sent.body['id'])}`);
    t.strictSame((fetched.body['message'] as Record<string, unknown>)['topic_links'], [{ text: '#7', url: 'https://x.test/7' }]);
  });
});
