import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember } from '../helpers/fixtures';
import { responseViolations, violations, componentSchema } from '../helpers/openapi';
import { startServer } from '../helpers/server';

// Success bodies conform to the reference OpenAPI schemas, read with the spec's neutral names.

t.test('the schema check itself', async (t) => {
  t.test('a conforming envelope passes and a broken one fails', async (t) => {
    const schema = { $ref: '#/components/schemas/JsonSuccessBase' };
    t.same(violations(schema, { result: 'success', msg: '' }), []);
    t.not(violations(schema, { result: 'nope', msg: '' }).length, 0, 'a result outside the enum fails');
    t.not(violations(schema, { result: 'success' }).length, 0, 'a missing required field fails');
  });
  t.test('a closed object refuses unknown fields and wrong types', async (t) => {
    const good = { result: 'success', msg: '', message: { id: 1 }, raw_content: 'x' };
    const problems = responseViolations('get', '/messages/{message_id}', { ...good, surprise: 1 });
    t.ok(problems.some((p) => p.includes('surprise')), problems.join('\n'));
    const typed = responseViolations('get', '/messages/{message_id}', { result: 'success', msg: '', raw_content: 5, message: {} });
    t.ok(typed.some((p) => p.includes('raw_content')), typed.join('\n'));
  });
  t.test('neutral names replace the vendor ones', async (t) => {
    const reaction = componentSchema('EmojiReaction');
    const base = { emoji_code: 'x', emoji_name: 'x', user_id: 1, user: { id: 1, email: 'a@b.c', full_name: 'A', is_mirror_dummy: false } };
    t.same(violations(reaction, { ...base, reaction_type: 'service_extra_emoji' }), []);
  });
});

t.test('endpoints answer as the reference schemas say', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'schemas', content: 'Hello @**Alice 1**' });
  const direct = await api.post('/messages', { type: 'direct', to: [alice.id], content: 'hi' });

  const cases: [string, string, () => Promise<{ body: unknown }>][] = [
    ['post', '/messages', async () => sent],
    ['get', '/messages/{message_id}', () => api.get(`/messages/${String(sent.body['id'])}`)],
    ['get', '/messages/{message_id}', () => api.get(`/messages/${String(direct.body['id'])}`, { apply_markdown: false })],
    ['get', '/server_settings', () => api.as(null).get('/server_settings')],
    ['get', '/users/me', () => api.get('/users/me')],
    ['get', '/streams', () => api.get('/streams')],
    ['get', '/users/me/alert_words', () => api.get('/users/me/alert_words')],
    ['get', '/realm/linkifiers', () => api.get('/realm/linkifiers')],
  ];
  for (const [method, path, call] of cases) {
    t.test(`${method.toUpperCase()} ${path}`, async (t) => {
      const res = await call();
      t.same(responseViolations(method, path, res.body), [], JSON.stringify(res.body).slice(0, 400));
    });
  }
});
