import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember } from '../helpers/fixtures';
import { responseViolations, violations, componentSchema } from '../helpers/openapi';
import { startServer } from '../helpers/server';

// Success bodies conform to the reference OpenAPI schemas, read with the spec's neutral names.

t.test('the schema check itself', async (t) => {
  t.test('a conforming envelope passes and a broken one fails', async (t) => {
    const schema = { $ref: '#/components/schemas/JsonSuccessBase' };
    t.strictSame(violations(schema, { result: 'success', msg: '' }), []);
    t.not(violations(schema, { result: 'nope', msg: '' }).length, 0, 'a result outside the enum fails');
    t.not(violations(schema, { result: 'success' }).length, 0, 'a missing required field fails');
  });
  t.test('a closed object refuses unknown fields and wrong types', async (t) => {
    const good = { result: 'success', msg: '', message: { id: 1 }, raw_content: 'x' };
    const problems = responseViolations('get', '/messages/{message_id}', { ...good, surprise: 1 });
    t.ok(
      problems.some((p) => p.includes('surprise')),
      problems.join('\n'),
    );
    const typed = responseViolations('get', '/messages/{message_id}', { result: 'success', msg: '', raw_content: 5, message: {} });
    t.ok(
      typed.some((p) => p.includes('raw_content')),
      typed.join('\n'),
    );
  });
  t.test('neutral names replace the vendor ones', async (t) => {
    const reaction = componentSchema('EmojiReaction');
    const base = { emoji_code: 'x', emoji_name: 'x', user_id: 1, user: { id: 1, email: 'a@b.c', full_name: 'A', is_mirror_dummy: false } };
    t.strictSame(violations(reaction, { ...base, reaction_type: 'service_extra_emoji' }), []);
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
  // The message domain: each call made once, in an order where each can succeed.
  const sentId = String(sent.body['id']);
  const future = Math.floor(Date.now() / 1000) + 3600;
  const scheduled = await api.post('/scheduled_messages', {
    type: 'stream',
    to: 1,
    topic: 'later',
    content: 'soon',
    scheduled_delivery_timestamp: future,
  });
  const scheduledId = String(scheduled.body['scheduled_message_id']);
  const general = await api.get('/streams');
  const generalId = (general.body['streams'] as { stream_id: number; name: string }[]).find((s) => s.name === 'general')?.stream_id ?? 0;
  const doomed = await api.post('/messages', { type: 'stream', to: 'general', topic: 'doomed', content: 'bye' });
  cases.push(
    ['post', '/messages/{message_id}/reactions', () => api.post(`/messages/${sentId}/reactions`, { emoji_name: 'thumbs_up' })],
    ['delete', '/messages/{message_id}/reactions', () => api.call('DELETE', `/messages/${sentId}/reactions`, { emoji_name: 'thumbs_up' })],
    ['post', '/messages/flags', () => api.post('/messages/flags', { messages: [Number(sentId)], op: 'add', flag: 'starred' })],
    ['post', '/mark_all_as_read', () => api.post('/mark_all_as_read')],
    ['post', '/mark_stream_as_read', () => api.post('/mark_stream_as_read', { stream_id: generalId })],
    ['post', '/mark_topic_as_read', () => api.post('/mark_topic_as_read', { stream_id: generalId, topic_name: 'schemas' })],
    ['get', '/messages/{message_id}/read_receipts', () => api.get(`/messages/${sentId}/read_receipts`)],
    ['patch', '/messages/{message_id}', () => api.call('PATCH', `/messages/${sentId}`, { content: 'Hello again' })],
    ['get', '/messages/{message_id}/history', () => api.get(`/messages/${sentId}/history`)],
    ['get', '/scheduled_messages', () => api.get('/scheduled_messages')],
    ['post', '/scheduled_messages', async () => scheduled],
    [
      'patch',
      '/scheduled_messages/{scheduled_message_id}',
      () => api.call('PATCH', `/scheduled_messages/${scheduledId}`, { content: 'sooner' }),
    ],
    ['delete', '/scheduled_messages/{scheduled_message_id}', () => api.call('DELETE', `/scheduled_messages/${scheduledId}`)],
    ['delete', '/messages/{message_id}', () => api.call('DELETE', `/messages/${String(doomed.body['id'])}`)],
    [
      'get',
      '/messages',
      () => api.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'stream', operand: 'general' }] }),
    ],
    [
      'get',
      '/messages',
      () => api.get('/messages', { anchor: 'oldest', num_before: 0, num_after: 10, narrow: [['search', 'hello']], apply_markdown: false }),
    ],
    [
      'get',
      '/messages',
      () =>
        api.as(alice).get('/messages', { anchor: 'first_unread', num_before: 5, num_after: 5, narrow: [{ operator: 'dm', operand: [1] }] }),
    ],
    [
      'get',
      '/messages/matches_narrow',
      () => api.get('/messages/matches_narrow', { msg_ids: [Number(sentId)], narrow: [{ operator: 'search', operand: 'hello' }] }),
    ],
    [
      'post',
      '/messages/flags/narrow',
      () => api.post('/messages/flags/narrow', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [], op: 'add', flag: 'read' }),
    ],
    ['post', '/streams/{stream_id}/delete_topic', () => api.post(`/streams/${generalId}/delete_topic`, { topic_name: 'nothing here' })],
  );
  for (const [method, path, call] of cases) {
    t.test(`${method.toUpperCase()} ${path}`, async (t) => {
      const res = await call();
      t.equal((res.body as Record<string, unknown>)['result'], 'success', JSON.stringify(res.body).slice(0, 400));
      t.strictSame(responseViolations(method, path, res.body), [], JSON.stringify(res.body).slice(0, 400));
    });
  }
});
