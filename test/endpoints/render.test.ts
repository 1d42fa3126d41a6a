import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember, fetchMessage } from '../helpers/fixtures';
import {
  ALWAYS_SKIPPED,
  REQUIRED_PASS_RATIO,
  linkifyExpectation,
  loadFixture,
  normalizeWhitespaceBetweenTags,
} from '../helpers/markdown-fixture';
import { updateSettings } from '../helpers/people';
import { startServer } from '../helpers/server';

// The fixture's realm lives at this address; ours at the test server's, so links into the
// realm are compared with the address swapped.
const FIXTURE_REALM_URL = 'http://zulip.testserver';

t.test('the Markdown fixture through POST /messages/render', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const realmUrl = `http://localhost:${server.port}`;
  // translate_emoticons is a personal setting: this user turns it on
  const emoticonUser = await createMember(api, 'Emoticons');
  await updateSettings(api.as(emoticonUser), { translate_emoticons: true });

  const fixture = loadFixture();
  const total = fixture.regular_tests.length + fixture.linkify_tests.length;
  let passed = 0;
  const render = async (client: ApiClient, content: string): Promise<string> => {
    const res = await client.post('/messages/render', { content });
    return typeof res.body['rendered'] === 'string' ? res.body['rendered'] : `error: ${String(res.body['msg'])}`;
  };

  for (const testCase of fixture.regular_tests) {
    const reason = ALWAYS_SKIPPED[testCase.name];
    if (reason !== undefined) {
      t.comment(`skipped ${testCase.name}: ${reason}`);
      continue;
    }
    const client = testCase.translate_emoticons ? api.as(emoticonUser) : api;
    const input = testCase.input.replaceAll(FIXTURE_REALM_URL, realmUrl);
    const expected = normalizeWhitespaceBetweenTags(testCase.expected_output.replaceAll(FIXTURE_REALM_URL, realmUrl));
    const actual = normalizeWhitespaceBetweenTags(await render(client, input));
    if (actual === expected) passed++;
    t.equal(actual, expected, testCase.name);
  }
  for (const testCase of fixture.linkify_tests) {
    const [input, template, url] = testCase.map((part) => part.replaceAll(FIXTURE_REALM_URL, realmUrl)) as typeof testCase;
    const actual = normalizeWhitespaceBetweenTags(await render(api, input));
    const expected = normalizeWhitespaceBetweenTags(linkifyExpectation([input, template, url]));
    if (actual === expected) passed++;
    t.equal(actual, expected, testCase[0]);
  }
  t.comment(`fixture over HTTP: ${passed}/${total} cases pass`);
  t.ok(passed / total >= REQUIRED_PASS_RATIO, `${passed}/${total} >= ${REQUIRED_PASS_RATIO}`);

  t.test('a sample of the fixture sent as messages comes back rendered the same way', async (t) => {
    const sample = fixture.regular_tests.filter((c) => !(c.name in ALWAYS_SKIPPED) && c.input.trim() !== '' && !c.translate_emoticons);
    for (const testCase of sample.filter((_, i) => i % 10 === 0)) {
      const input = testCase.input.replaceAll(FIXTURE_REALM_URL, realmUrl);
      const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'fixture', content: input });
      t.equal(sent.status, 200, testCase.name);
      const message = await fetchMessage(api, sent.body['id']);
      t.equal(
        normalizeWhitespaceBetweenTags(String(message['content'])),
        normalizeWhitespaceBetweenTags(testCase.expected_output.replaceAll(FIXTURE_REALM_URL, realmUrl)),
        testCase.name,
      );
      const raw = await api.get(`/messages/${String(sent.body['id'])}`, { apply_markdown: false });
      t.equal((raw.body['message'] as Record<string, unknown>)['content'], input.trimEnd(), 'the source is kept');
    }
  });
});

t.test('the dialect through the HTTP API', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');
  const aliceName = String((await api.as(alice).get('/users/me')).body['full_name']);
  const send = async (content: string, topic = 'dialect'): Promise<number> =>
    Number((await api.post('/messages', { type: 'stream', to: 'general', topic, content })).body['id']);

  t.test('a user mention renders a span and flags only that user as mentioned', async (t) => {
    const id = await send(`hi @**${aliceName}**`);
    const forAlice = await fetchMessage(api.as(alice), id);
    t.equal(forAlice['content'], `<p>hi <span class="user-mention" data-user-id="${alice.id}">@${aliceName}</span></p>`);
    t.strictSame(forAlice['flags'], ['mentioned']);
    t.strictSame((await fetchMessage(api.as(bob), id))['flags'], []);
  });

  t.test('a mention by name and ID works, a silent mention does not notify', async (t) => {
    const byId = await send(`@**${aliceName}|${alice.id}**`);
    t.strictSame((await fetchMessage(api.as(alice), byId))['flags'], ['mentioned']);
    const silent = await send(`@_**${aliceName}**`);
    const message = await fetchMessage(api.as(alice), silent);
    t.equal(message['content'], `<p><span class="user-mention silent" data-user-id="${alice.id}">${aliceName}</span></p>`);
    t.strictSame(message['flags'], []);
  });

  t.test('wildcard mentions set wildcard_mentioned for the recipients', async (t) => {
    for (const wildcard of ['all', 'everyone', 'stream']) {
      const id = await send(`@**${wildcard}** heads up`);
      const message = await fetchMessage(api.as(bob), id);
      t.equal(message['content'], `<p><span class="user-mention" data-user-id="*">@${wildcard}</span> heads up</p>`);
      t.strictSame(message['flags'], ['wildcard_mentioned'], wildcard);
    }
  });

  t.test('an unknown user mention falls back to bold text', async (t) => {
    const rendered = await api.post('/messages/render', { content: '@**Nobody Here**' });
    t.equal(rendered.body['rendered'], '<p>@<strong>Nobody Here</strong></p>');
  });

  t.test('stream and topic links', async (t) => {
    const streams = (await api.get('/streams')).body['streams'] as { name: string; stream_id: number }[];
    const general = streams.find((s) => s.name === 'general')?.stream_id;
    const link = await api.post('/messages/render', { content: '#**general**' });
    t.equal(
      link.body['rendered'],
      `<p><a class="stream" data-stream-id="${general}" href="/#narrow/stream/${general}-general">#general</a></p>`,
    );
    const topic = await api.post('/messages/render', { content: '#**general>some topic**' });
    t.equal(
      topic.body['rendered'],
      `<p><a class="stream-topic" data-stream-id="${general}" href="/#narrow/stream/${general}-general/topic/some.20topic">#general &gt; some topic</a></p>`,
    );
  });

  t.test('emoji by name, and /me messages', async (t) => {
    const emoji = await api.post('/messages/render', { content: ':smile:' });
    t.equal(emoji.body['rendered'], '<p><span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>');
    const me = await send('/me waves');
    const message = await fetchMessage(api, me);
    t.equal(message['is_me_message'], true);
    t.equal(message['content'], '<p>/me waves</p>');
    t.equal((await fetchMessage(api, await send('not /me')))['is_me_message'], false);
  });

  t.test('code blocks with a language, quotes, spoilers and times', async (t) => {
    const code = await api.post('/messages/render', { content: '```inventedlanguage\nx = 1\n```' });
    t.equal(
      code.body['rendered'],
      '<div class="codehilite" data-code-language="inventedlanguage"><pre><span></span><code>x = 1\n</code></pre></div>',
    );
    const quote = await api.post('/messages/render', { content: '> quoted' });
    t.equal(quote.body['rendered'], '<blockquote>\n<p>quoted</p>\n</blockquote>');
    const spoiler = await api.post('/messages/render', { content: '```spoiler Title\nhidden\n```' });
    t.equal(
      normalizeWhitespaceBetweenTags(String(spoiler.body['rendered'])),
      '<div class="spoiler-block"><div class="spoiler-header"><p>Title</p></div><div class="spoiler-content" aria-hidden="true"><p>hidden</p></div></div>',
    );
    const time = await api.post('/messages/render', { content: '<time:2017-06-05T22:30:00Z>' });
    t.equal(time.body['rendered'], '<p><time datetime="2017-06-05T22:30:00Z">2017-06-05T22:30:00Z</time></p>');
  });

  t.test('stream descriptions are rendered as Markdown', async (t) => {
    await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'described', description: 'See **this**' }] });
    const streams = (await api.get('/streams')).body['streams'] as { name: string; rendered_description: string }[];
    t.equal(streams.find((s) => s.name === 'described')?.rendered_description, '<p>See <strong>this</strong></p>');
  });

  t.test('raw HTML, script, event handlers and dangerous links come out inert', async (t) => {
    const cases: [string, string][] = [
      ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
      ['<img src=x onerror=alert(1)>', '<p>&lt;img src=x onerror=alert(1)&gt;</p>'],
      ['[click](javascript:alert(1))', '<p>[click](javascript:alert(1))</p>'],
      ['[data](data:text/html;base64,PHNjcmlwdD4=)', '<p>[data](data:text/html;base64,PHNjcmlwdD4=)</p>'],
      ['`<b>code</b>`', '<p><code>&lt;b&gt;code&lt;/b&gt;</code></p>'],
    ];
    for (const [content, expected] of cases) {
      const sent = await send(content, 'xss');
      const message = await fetchMessage(api, sent);
      t.equal(message['content'], expected, content);
      t.notMatch(String(message['content']), /<script|<img|href="javascript:|href="data:/i);
    }
    const link = await api.post('/messages/render', { content: '[<b>x</b>](https://example.com/"onmouseover="alert(1))' });
    t.notMatch(String(link.body['rendered']), /<b>|onmouseover="alert/);
  });

  t.test('empty or blank content renders to an empty string, as the public server answers', async (t) => {
    for (const content of ['', '   ', '\n\n']) {
      const res = await api.post('/messages/render', { content });
      t.equal(res.status, 200, JSON.stringify(content));
      t.strictSame(res.body, { result: 'success', msg: '', rendered: '' }, JSON.stringify(content));
    }
  });
});

t.test('rendering on a piscina pool gives the same HTML and follows realm changes', async (t) => {
  const server = await startServer({ env: { RENDER_THREADS: '1' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const first = await api.post('/messages/render', { content: '**bold** :smile:' });
  t.equal(
    first.body['rendered'],
    '<p><strong>bold</strong> <span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>',
  );
  const before = await api.post('/messages/render', { content: '@**Pool Person**' });
  t.equal(before.body['rendered'], '<p>@<strong>Pool Person</strong></p>', 'not a user yet');
  const created = await api.post('/users', { email: 'pool@example.com', password: 'secret', full_name: 'Pool Person' });
  const after = await api.post('/messages/render', { content: '@**Pool Person**' });
  t.equal(
    after.body['rendered'],
    `<p><span class="user-mention" data-user-id="${String(created.body['user_id'])}">@Pool Person</span></p>`,
    'the pool saw the new user',
  );
});
