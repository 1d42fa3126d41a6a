import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { responseViolations } from '../helpers/openapi';
import { sendToStream } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

// POST/DELETE /users/me/muted_users/{muted_user_id} (openapi mute-user, unmute-user).

t.test('muted users', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const muterCredentials = await createMember(owner, 'Muter');
  const muter = owner.as(muterCredentials);
  const noisyCredentials = await createMember(owner, 'Noisy');
  const noisy = owner.as(noisyCredentials);

  await t.test('errors come with the public API texts', async (t) => {
    const bot = await owner.post('/bots', { full_name: 'Mute bot', short_name: 'mutebot' });
    const cases: [string, string, string, string][] = [
      ['yourself', 'POST', `/users/me/muted_users/${muterCredentials.id}`, 'Cannot mute self'],
      ['an unknown user', 'POST', '/users/me/muted_users/99999', 'No such user'],
      ['a bot', 'POST', `/users/me/muted_users/${String(bot.body['user_id'])}`, 'No such user'],
      ['unmuting an unknown user', 'DELETE', '/users/me/muted_users/99999', 'No such user'],
      ['unmuting someone not muted', 'DELETE', `/users/me/muted_users/${noisyCredentials.id}`, 'User is not muted'],
    ];
    for (const [name, method, path, msg] of cases) {
      const res = await muter.call(method, path);
      t.strictSame([res.status, res.body], [400, { result: 'error', msg, code: 'BAD_REQUEST' }], name);
    }
  });

  await t.test('muting: the event, register, existing and new messages read', async (t) => {
    const unreadBefore = await sendToStream(noisy, 'general', 'chatter', 'before the mute');
    const reader = await EventReader.register(muter, { event_types: ['muted_users', 'update_message_flags', 'message'] });
    const res = await muter.post(`/users/me/muted_users/${noisyCredentials.id}`);
    t.equal(res.status, 200, res.text);
    t.strictSame(
      responseViolations('post', '/users/me/muted_users/{muted_user_id}', res.body),
      [],
      'the success body conforms to the reference',
    );
    const events = await reader.nextPayloads();
    const muted = events[0]?.['muted_users'] as { id: number; timestamp: number }[];
    hasFields(t, events[0], { type: 'muted_users' }, 'first the muted_users event');
    t.strictSame(
      muted.map((m) => m.id),
      [noisyCredentials.id],
      'naming the muted user',
    );
    t.ok(Number.isInteger(muted[0]?.timestamp), 'with a timestamp in seconds');
    t.strictSame(
      events.slice(1),
      [{ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [unreadBefore], all: false }],
      'their unread message is marked read',
    );
    const state = await muter.post('/register', { fetch_event_types: ['muted_users'] });
    t.strictSame(state.body['muted_users'], muted, 'register shows the same list');
    const again = await muter.post(`/users/me/muted_users/${noisyCredentials.id}`);
    t.strictSame([again.status, again.body['msg']], [400, 'User already muted'], 'muting twice is an error');

    const after = await sendToStream(noisy, 'general', 'chatter', 'after the mute');
    const arrived = await reader.nextPayloads();
    hasFields(t, arrived, [{ type: 'message', message: { id: after }, flags: ['read'] }], 'a new message from them arrives read');
    const direct = await noisy.post('/messages', { type: 'direct', to: [muterCredentials.id], content: 'psst' });
    hasFields(
      t,
      await reader.nextPayloads(),
      [{ type: 'message', message: { id: direct.body['id'] }, flags: ['read'] }],
      'direct messages too',
    );

    const unmuted = await muter.call('DELETE', `/users/me/muted_users/${noisyCredentials.id}`);
    t.equal(unmuted.status, 200, unmuted.text);
    t.strictSame(
      responseViolations('delete', '/users/me/muted_users/{muted_user_id}', unmuted.body),
      [],
      'the success body conforms to the reference',
    );
    t.strictSame(await reader.nextPayloads(), [{ type: 'muted_users', muted_users: [] }], 'the list is empty again');
    const later = await sendToStream(noisy, 'general', 'chatter', 'unmuted now');
    hasFields(t, await reader.nextPayloads(), [{ type: 'message', message: { id: later }, flags: [] }], 'new messages are unread again');
  });

  await t.test('a deactivated user may still be muted', async (t) => {
    const gone = await createMember(owner, 'Gone');
    await owner.call('DELETE', `/users/${gone.id}`);
    t.equal((await muter.post(`/users/me/muted_users/${gone.id}`)).status, 200);
  });
});
