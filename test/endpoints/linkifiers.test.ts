import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember, fetchMessage } from '../helpers/fixtures';
import { startServer } from '../helpers/server';

t.test('linkifiers', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);

  t.test('errors', async (t) => {
    t.test('only administrators may change linkifiers', async (t) => {
      const member = await createMember(api);
      const res = await api.as(member).post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://x.test/{id}' });
      t.strictSame(res.body, { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    });
    t.test('a pattern that does not compile is refused', async (t) => {
      const res = await api.post('/realm/filters', { pattern: '#(?P<id>[0-9+', url_template: 'https://x.test/{id}' });
      t.strictSame(res.body, { result: 'error', msg: 'Invalid linkifier pattern.', code: 'BAD_REQUEST' });
    });
    t.test('a template variable must be a group of the pattern', async (t) => {
      const res = await api.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://x.test/{ticket}' });
      t.strictSame(res.body, {
        result: 'error',
        msg: "Group 'ticket' in URL template is not present in linkifier pattern.",
        code: 'BAD_REQUEST',
      });
    });
    t.test('an unknown linkifier cannot be changed or removed', async (t) => {
      const patch = await api.call('PATCH', '/realm/filters/999', { pattern: 'a(?P<x>b)', url_template: 'https://x.test/{x}' });
      t.strictSame(patch.body, { result: 'error', msg: 'Linkifier not found.', code: 'BAD_REQUEST' });
      const del = await api.call('DELETE', '/realm/filters/999');
      t.strictSame(del.body, { result: 'error', msg: 'Linkifier not found.', code: 'BAD_REQUEST' });
    });
  });

  t.test('add, list, change and remove a linkifier', async (t) => {
    const added = await api.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}' });
    t.equal(added.status, 200);
    const id = added.body['id'];
    t.type(id, 'number');
    const listed = await api.get('/realm/linkifiers');
    t.strictSame(listed.body['linkifiers'], [{ id, pattern: '#(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}' }]);

    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'bug #224', content: 'see #224' });
    const message = await fetchMessage(api, sent.body['id']);
    t.strictSame(message['topic_links'], [{ text: '#224', url: 'https://trac.example.com/ticket/224' }]);
    t.equal(message['content'], '<p>see <a href="https://trac.example.com/ticket/224">#224</a></p>');

    const changed = await api.call('PATCH', `/realm/filters/${String(id)}`, {
      pattern: 'T(?P<id>[0-9]+)',
      url_template: 'https://t.example.com/{id}',
    });
    t.equal(changed.status, 200);
    const rendered = await api.post('/messages/render', { content: 'T7 and #7' });
    t.equal(rendered.body['rendered'], '<p><a href="https://t.example.com/7">T7</a> and #7</p>');

    const removed = await api.call('DELETE', `/realm/filters/${String(id)}`);
    t.equal(removed.status, 200);
    t.strictSame((await api.get('/realm/linkifiers')).body['linkifiers'], []);
    const plain = await api.post('/messages/render', { content: 'T7' });
    t.equal(plain.body['rendered'], '<p>T7</p>', 'a removed linkifier no longer applies');
  });
});
