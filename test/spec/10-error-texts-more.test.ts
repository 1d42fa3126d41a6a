import t from 'tap';
import { postFiles } from '../helpers/files';
import { createMember } from '../helpers/fixtures';
import { ApiClient, badRequest } from '../helpers/http';
import type { ApiResponse } from '../helpers/http';
import { startServer } from '../helpers/server';

/**
 * Errors whose texts were checked against the public server's source (7.0): status, `msg`,
 * `code` and the extra fields, compared exactly. The common ones are in 10-error-texts.
 */
t.test('less common errors answer the public texts, codes and statuses', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(owner, 'Alice');
  const gone = await createMember(owner, 'Gone');
  t.equal((await owner.call('DELETE', `/users/${gone.id}`)).status, 200, 'a deactivated account holds its address');

  await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'texts' }] });
  const streamId = Number((await owner.get('/get_stream_id', { stream: 'texts' })).body['stream_id']);
  const direct = await owner.post('/messages', { type: 'direct', to: [alice.id], content: 'psst' });
  const directId = Number(direct.body['id']);

  const cases: [string, () => Promise<ApiResponse>, number, Record<string, unknown>][] = [
    [
      'a linkifier with a blank pattern',
      () => owner.post('/realm/filters', { pattern: ' ', url_template: 'https://x.test/' }),
      400,
      badRequest('This field cannot be blank.'),
    ],
    [
      'a linkifier template variable that is not a group',
      () => owner.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://x.test/{ticket}' }),
      400,
      badRequest("Group 'ticket' in URL template is not present in linkifier pattern."),
    ],
    [
      'a playground without a name',
      () => owner.post('/realm/playgrounds', { name: ' ', lexer_language: 'Python', url_prefix: 'https://python.example.com' }),
      400,
      badRequest('This field cannot be blank.'),
    ],
    [
      'a new stream with a too long description',
      () => owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'long' }, { name: 'longer', description: 'x'.repeat(1025) }] }),
      400,
      badRequest('subscriptions[1]["description"] is too long (limit: 1024 characters)'),
    ],
    [
      'a stream description changed to a too long one',
      () => owner.call('PATCH', `/streams/${streamId}`, { description: 'x'.repeat(1025) }),
      400,
      badRequest('description is too long (limit: 1024 characters)'),
    ],
    [
      'a user group with a blank name',
      () => owner.post('/user_groups/create', { name: ' ', description: 'd', members: [alice.id] }),
      400,
      badRequest("User group name can't be empty!"),
    ],
    [
      'deleting an emoji the organization does not have',
      () => owner.call('DELETE', '/realm/emoji/nosuchthing'),
      400,
      badRequest("Emoji 'nosuchthing' does not exist"),
    ],
    [
      'an unknown time zone',
      () => owner.call('PATCH', '/settings', { timezone: 'Mars/Olympus_Mons' }),
      400,
      badRequest('timezone is not a recognized time zone'),
    ],
    [
      'an email change to an active account’s address',
      () => owner.call('PATCH', '/settings', { email: alice.email }),
      400,
      badRequest('Already has an account.'),
    ],
    [
      'an email change to a deactivated account’s address',
      () => owner.call('PATCH', '/settings', { email: gone.email }),
      400,
      badRequest('Account has been deactivated.'),
    ],
    [
      'a topic for a direct message',
      () => owner.call('PATCH', `/messages/${directId}`, { topic: 'nope' }),
      400,
      badRequest('Direct messages cannot have topics.'),
    ],
    [
      'a direct message moved to a stream',
      () => owner.call('PATCH', `/messages/${directId}`, { stream_id: streamId }),
      400,
      badRequest('Direct messages cannot be moved to streams.'),
    ],
  ];
  for (const [name, send, status, body] of cases) {
    const answer = await send();
    t.strictSame({ status: answer.status, body: answer.body }, { status, body }, name);
  }

  const notAnImage = await postFiles(server.baseUrl, '/realm/emoji/textfile', server.owner, [
    { field: 'f', filename: 'a.png', contentType: 'image/png', data: Buffer.from('text') },
  ]);
  t.strictSame(
    { status: notAnImage.status, body: notAnImage.json() },
    { status: 400, body: { result: 'error', msg: 'Could not decode image; did you upload an image file?', code: 'BAD_IMAGE' } },
    'an emoji file that is not an image',
  );
});
