import t from 'tap';
import { ApiClient, badRequest, request } from '../helpers/http';
import type { ApiResponse } from '../helpers/http';
import { onePersonOfEachRole } from '../helpers/people';
import { startServer } from '../helpers/server';

/**
 * The most common errors, word for word as the public API answers them (api-notes §f and the
 * OpenAPI examples): status, `msg`, `code` and the extra fields, compared exactly.
 */
t.test('common errors answer the public texts, codes, statuses and fields', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const people = await onePersonOfEachRole(owner, server.owner);
  const member = owner.as(people.member);
  const guest = owner.as(people.guest);
  const admin = owner.as(people.admin);
  const anonymous = owner.as(null);

  const created = await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'errors' }, { name: 'taken' }] });
  t.equal(created.status, 200, 'streams created');
  const streamId = Number((await owner.get('/get_stream_id', { stream: 'errors' })).body['stream_id']);
  const sent = await owner.post('/messages', { type: 'stream', to: 'errors', topic: 't', content: 'hello' });
  const messageId = Number(sent.body['id']);
  const ownerId = people.owner.id;
  await owner.post(`/messages/${messageId}/reactions`, { emoji_name: 'smile' });
  await owner.post(`/users/me/muted_users/${people.member.id}`);
  await owner.post('/user_groups/create', { name: 'crew', description: 'd', members: [ownerId] });

  const cases: [string, () => Promise<ApiResponse>, number, Record<string, unknown>][] = [
    // SPEC §Authentication 2: missing credentials are answered without a code.
    [
      'no credentials',
      () => anonymous.get('/users/me'),
      401,
      { result: 'error', msg: 'Not logged in: API authentication or user session required' },
    ],
    [
      'a wrong API key',
      () => owner.as({ email: server.owner.email, key: 'x'.repeat(32) }).get('/users/me'),
      401,
      { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' },
    ],
    [
      'a wrong password',
      () => anonymous.post('/fetch_api_key', { username: server.owner.email, password: 'not-the-password' }),
      401,
      { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' },
    ],
    [
      'a missing argument',
      () => owner.post('/messages', { type: 'stream', to: 'errors', topic: 't' }),
      400,
      { result: 'error', msg: "Missing 'content' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'content' },
    ],
    [
      'an argument that is not JSON',
      () => owner.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: '[' }),
      400,
      badRequest('Argument "narrow" is not valid JSON.'),
    ],
    [
      'an unknown stream name',
      () => owner.post('/messages', { type: 'stream', to: 'nonexistent', topic: 't', content: 'x' }),
      400,
      { result: 'error', msg: "Stream 'nonexistent' does not exist", code: 'STREAM_DOES_NOT_EXIST', stream: 'nonexistent' },
    ],
    [
      'an unknown stream ID to send to',
      () => owner.post('/messages', { type: 'stream', to: 99999, topic: 't', content: 'x' }),
      400,
      { result: 'error', msg: "Stream with ID '99999' does not exist", code: 'STREAM_DOES_NOT_EXIST', stream_id: 99999 },
    ],
    ['an unknown stream ID to read', () => owner.get('/streams/99999'), 400, badRequest('Invalid stream ID')],
    [
      'an unknown stream name to look up',
      () => owner.get('/get_stream_id', { stream: 'nonexistent' }),
      400,
      badRequest("Invalid stream name 'nonexistent'"),
    ],
    ['an unknown message', () => owner.get('/messages/99999'), 400, badRequest('Invalid message(s)')],
    ['an unknown user', () => owner.get('/users/99999'), 400, badRequest('No such user')],
    ['an unknown user group', () => owner.get('/user_groups/99999/members'), 400, badRequest('Invalid user group')],
    [
      'an unknown narrow operator',
      () => owner.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'nonsense', operand: 'x' }] }),
      400,
      { result: 'error', msg: 'Invalid narrow operator: unknown operator nonsense', code: 'BAD_NARROW', desc: 'unknown operator nonsense' },
    ],
    [
      'an unknown event queue',
      () => owner.get('/events', { queue_id: 'nonexistent', last_event_id: -1 }),
      400,
      { result: 'error', msg: 'Bad event queue ID: nonexistent', code: 'BAD_EVENT_QUEUE_ID', queue_id: 'nonexistent' },
    ],
    [
      'a member adding a linkifier',
      () => member.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/{id}' }),
      400,
      { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' },
    ],
    [
      'an administrator making an owner',
      () => admin.call('PATCH', `/users/${people.member.id}`, { role: 100 }),
      400,
      { result: 'error', msg: 'Must be an organization owner', code: 'UNAUTHORIZED_PRINCIPAL' },
    ],
    [
      'a guest creating a bot',
      () => guest.post('/bots', { full_name: 'Robot', short_name: 'robot' }),
      400,
      badRequest('Not allowed for guest users'),
    ],
    [
      'a member editing the content of an administrator’s message',
      () => member.call('PATCH', `/messages/${messageId}`, { content: 'changed' }),
      400,
      badRequest("You don't have permission to edit this message"),
    ],
    [
      'an unknown emoji',
      () => owner.post(`/messages/${messageId}/reactions`, { emoji_name: 'nonexistent' }),
      400,
      badRequest("Emoji 'nonexistent' does not exist"),
    ],
    [
      'a reaction given twice',
      () => owner.post(`/messages/${messageId}/reactions`, { emoji_name: 'smile' }),
      400,
      badRequest('Reaction already exists.'),
    ],
    [
      'a reaction never given',
      () => owner.call('DELETE', `/messages/${messageId}/reactions`, { emoji_name: 'heart' }),
      400,
      badRequest("Reaction doesn't exist."),
    ],
    ['muting oneself', () => owner.post(`/users/me/muted_users/${ownerId}`), 400, badRequest('Cannot mute self')],
    ['muting twice', () => owner.post(`/users/me/muted_users/${people.member.id}`), 400, badRequest('User already muted')],
    [
      'unmuting someone not muted',
      () => owner.call('DELETE', `/users/me/muted_users/${people.admin.id}`),
      400,
      badRequest('User is not muted'),
    ],
    ['muting an unknown user', () => owner.post('/users/me/muted_users/99999'), 400, badRequest('No such user')],
    ['typing to an unknown user', () => owner.post('/typing', { op: 'start', to: [99999] }), 400, badRequest('Invalid user ID 99999')],
    [
      'typing to two streams',
      () => owner.post('/typing', { op: 'start', type: 'stream', to: [streamId, streamId + 1], topic: 't' }),
      400,
      badRequest('Cannot send to multiple streams'),
    ],
    [
      'a user group named twice',
      () => owner.post('/user_groups/create', { name: 'crew', description: 'd', members: [ownerId] }),
      400,
      badRequest("User group 'crew' already exists."),
    ],
    [
      'an alert word that is too long',
      () => owner.post('/users/me/alert_words', { alert_words: ['short', 'long'.repeat(26)] }),
      400,
      badRequest('alert_words[1] is too long (limit: 100 characters)'),
    ],
    [
      'an unknown scheduled message',
      () => owner.call('DELETE', '/scheduled_messages/99999'),
      404,
      { result: 'error', msg: 'Scheduled message does not exist', code: 'BAD_REQUEST' },
    ],
    [
      'an unknown draft',
      () => owner.call('DELETE', '/drafts/99999'),
      404,
      { result: 'error', msg: 'Draft does not exist', code: 'BAD_REQUEST' },
    ],
    [
      'the only owner deactivating themselves',
      () => owner.call('DELETE', '/users/me'),
      400,
      {
        result: 'error',
        msg: 'Cannot deactivate the only organization owner.',
        code: 'CANNOT_DEACTIVATE_LAST_USER',
        is_last_owner: true,
        entity: 'organization owner',
      },
    ],
  ];
  for (const [name, send, status, body] of cases) {
    const answer = await send();
    t.strictSame({ status: answer.status, body: answer.body }, { status, body }, name);
  }

  // A subdomain with no organization reaches a shard; a foreign host is refused at the front end.
  for (const host of [`nowhere.localhost:${server.port}`, 'example.org']) {
    const unknownRealm = await request({ baseUrl: server.baseUrl, method: 'GET', path: '/api/v1/users/me', host, auth: server.owner });
    t.strictSame(
      { status: unknownRealm.status, body: unknownRealm.body },
      { status: 404, body: { result: 'error', msg: 'Invalid subdomain', code: 'NONEXISTENT_SUBDOMAIN' } },
      `no organization at ${host}`,
    );
  }
});
