import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { responseViolations } from '../helpers/openapi';
import { streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

// DELETE /users/{user_id}, DELETE /users/me, POST /users/{user_id}/reactivate (openapi
// deactivate-user, deactivate-own-user, reactivate-user) and POST /users/me/api_key/regenerate.

t.test('deactivation and reactivation', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const generalId = await streamIdOf(owner, 'general');
  const members = async () => (await owner.get(`/streams/${generalId}/members`)).body['subscribers'] as number[];

  await t.test('errors come with the public API texts', async (t) => {
    const memberCredentials = await createMember(owner, 'Plain');
    const member = owner.as(memberCredentials);
    const adminCredentials = await createMember(owner, 'Admin');
    await owner.call('PATCH', `/users/${adminCredentials.id}`, { role: 200 });
    const admin = owner.as(adminCredentials);
    const bot = await member.post('/bots', { full_name: 'Helper bot', short_name: 'helper' });
    const gone = await createMember(owner, 'Gone');
    await owner.call('DELETE', `/users/${gone.id}`);
    const cases: [string, ApiClient, string, string, Record<string, unknown>][] = [
      [
        'a member may not deactivate others',
        member,
        'DELETE',
        `/users/${adminCredentials.id}`,
        { msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' },
      ],
      [
        'a member may not reactivate',
        member,
        'POST',
        `/users/${gone.id}/reactivate`,
        { msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' },
      ],
      [
        'an administrator may not deactivate an owner',
        admin,
        'DELETE',
        '/users/1',
        { msg: 'Must be an organization owner', code: 'UNAUTHORIZED_PRINCIPAL' },
      ],
      ['an unknown user', owner, 'DELETE', '/users/99999', { msg: 'No such user', code: 'BAD_REQUEST' }],
      [
        'a bot is not deactivated as a user',
        owner,
        'DELETE',
        `/users/${String(bot.body['user_id'])}`,
        { msg: 'No such user', code: 'BAD_REQUEST' },
      ],
      ['a deactivated user', owner, 'DELETE', `/users/${gone.id}`, { msg: 'User is deactivated', code: 'BAD_REQUEST' }],
      ['the only owner', owner, 'DELETE', '/users/1', { msg: 'Cannot deactivate the only organization owner', code: 'BAD_REQUEST' }],
      [
        'reactivating an active user',
        owner,
        'POST',
        `/users/${memberCredentials.id}/reactivate`,
        { msg: 'User is already active', code: 'BAD_REQUEST' },
      ],
      ['reactivating an unknown user', owner, 'POST', '/users/99999/reactivate', { msg: 'No such user', code: 'BAD_REQUEST' }],
      [
        'the only owner leaving on their own',
        owner,
        'DELETE',
        '/users/me',
        {
          msg: 'Cannot deactivate the only organization owner.',
          code: 'CANNOT_DEACTIVATE_LAST_USER',
          is_last_owner: true,
          entity: 'organization owner',
        },
      ],
    ];
    for (const [name, client, method, path, expected] of cases) {
      const res = await client.call(method, path);
      t.equal(res.status, 400, `${name}: status`);
      t.strictSame(res.body, { result: 'error', ...expected }, name);
    }
  });

  await t.test('a deactivated user: key refused at once, queues gone, off the subscriber lists, bots deactivated', async (t) => {
    const leaverCredentials = await createMember(owner, 'Leaver');
    const leaver = owner.as(leaverCredentials);
    const observerCredentials = await createMember(owner, 'Observer');
    const observer = await EventReader.register(owner.as(observerCredentials), {
      event_types: ['realm_user', 'realm_bot', 'subscription'],
    });
    const ownerReader = await EventReader.register(owner, { event_types: ['realm_bot'] });
    const created = await leaver.post('/bots', { full_name: 'Leaver bot', short_name: 'leaverbot' });
    t.equal(created.status, 200, created.text);
    const botId = created.body['user_id'] as number;
    const ownBots = (await leaver.post('/register', { fetch_event_types: ['realm_bot'] })).body['realm_bots'] as {
      user_id: number;
      email: string;
    }[];
    const botEmail = ownBots.find((b) => b.user_id === botId)?.email ?? '';
    t.match(botEmail, /^leaverbot-bot@/, 'the bot email is <short_name>-bot@<realm host>');
    const botClient = owner.as({ email: botEmail, key: created.body['api_key'] as string });
    t.equal((await botClient.get('/users/me')).status, 200, 'the bot authenticates with its own email and key');
    const leaverQueue = await EventReader.register(leaver);
    const leaverName = await nameOf(leaverCredentials.id);
    await observer.next();
    await ownerReader.next();
    t.ok((await members()).includes(leaverCredentials.id), 'subscribed to general before');

    const res = await owner.call('DELETE', `/users/${leaverCredentials.id}`, { deactivation_notification_comment: 'Farewell!' });
    t.equal(res.status, 200, res.text);
    t.strictSame(responseViolations('delete', '/users/{user_id}', res.body), [], 'the success body conforms to the reference');

    const refused = await leaver.get('/users/me');
    t.equal(refused.status, 401, 'the old key is refused at once');
    t.strictSame(refused.body, { result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' });
    t.strictSame((await botClient.get('/users/me')).body['msg'], 'Account is deactivated', 'so is the bot');
    t.notOk((await members()).includes(leaverCredentials.id), 'no longer among the subscribers');
    t.strictSame(
      await observer.nextPayloads(),
      [
        { type: 'realm_user', op: 'remove', person: { user_id: botId, full_name: 'Leaver bot' } },
        { type: 'realm_user', op: 'remove', person: { user_id: leaverCredentials.id, full_name: leaverName } },
      ],
      'others hear realm_user remove for the bot, then the user; no peer_remove (7.0 hides them)',
    );
    t.strictSame(
      await ownerReader.nextPayloads(),
      [{ type: 'realm_bot', op: 'remove', bot: { user_id: botId, full_name: 'Leaver bot' } }],
      'administrators hear realm_bot remove',
    );
    const bots = (await owner.post('/register', { fetch_event_types: ['realm_bot'] })).body['realm_bots'] as {
      user_id: number;
      is_active: boolean;
    }[];
    t.strictSame(bots.find((b) => b.user_id === botId)?.is_active, false, 'realm_bots shows the bot inactive');
    const state = await owner.post('/register', { fetch_event_types: ['realm_user'] });
    t.ok(
      (state.body['realm_non_active_users'] as { user_id: number }[]).some((p) => p.user_id === leaverCredentials.id),
      'listed with the non-active users',
    );

    const back = await owner.post(`/users/${leaverCredentials.id}/reactivate`);
    t.equal(back.status, 200, back.text);
    t.strictSame(responseViolations('post', '/users/{user_id}/reactivate', back.body), [], 'the success body conforms to the reference');
    t.equal((await leaver.get('/users/me')).status, 200, 'the key works again');
    const polled = await leaver.get('/events', { queue_id: leaverQueue.queueId, last_event_id: -1, dont_block: true });
    t.equal(polled.status, 400, 'the old queue is gone');
    t.strictSame(polled.body, {
      result: 'error',
      msg: `Bad event queue ID: ${leaverQueue.queueId}`,
      code: 'BAD_EVENT_QUEUE_ID',
      queue_id: leaverQueue.queueId,
    });
    t.ok((await members()).includes(leaverCredentials.id), 'back among the subscribers');
    const events = await observer.nextPayloads();
    hasFields(
      t,
      events[0],
      { type: 'realm_user', op: 'add', person: { user_id: leaverCredentials.id, is_active: true } },
      'realm_user add',
    );
    t.strictSame(
      events.slice(1),
      [{ type: 'subscription', op: 'peer_add', stream_ids: [generalId], user_ids: [leaverCredentials.id] }],
      'peer_add for the streams they are in',
    );
    t.equal((await botClient.get('/users/me')).status, 401, 'their bots stay deactivated');
  });

  async function nameOf(userId: number): Promise<string> {
    const state = await owner.post('/register', { fetch_event_types: ['realm_user'] });
    const people = [
      ...(state.body['realm_users'] as { user_id: number; full_name: string }[]),
      ...(state.body['realm_non_active_users'] as { user_id: number; full_name: string }[]),
    ];
    return people.find((p) => p.user_id === userId)?.full_name ?? '';
  }

  await t.test('a member may leave on their own; the owner may once another owner exists', async (t) => {
    const leaverCredentials = await createMember(owner, 'Quitter');
    const res = await owner.as(leaverCredentials).call('DELETE', '/users/me');
    t.equal(res.status, 200, res.text);
    t.strictSame(responseViolations('delete', '/users/me', res.body), [], 'the success body conforms to the reference');
    t.equal((await owner.as(leaverCredentials).get('/users/me')).status, 401, 'their key no longer works');
    const second = await createMember(owner, 'Co-owner');
    await owner.call('PATCH', `/users/${second.id}`, { role: 100 });
    const admin = await createMember(owner, 'Administrator');
    await owner.call('PATCH', `/users/${admin.id}`, { role: 200 });
    hasFields(
      t,
      (await owner.as(admin).call('DELETE', `/users/${second.id}`)).body,
      { msg: 'Must be an organization owner' },
      'not by an administrator',
    );
    t.equal((await owner.as(second).call('DELETE', '/users/1')).status, 200, 'one owner deactivates the other');
    hasFields(
      t,
      (await owner.as(second).call('DELETE', '/users/me')).body,
      { code: 'CANNOT_DEACTIVATE_LAST_USER', is_last_owner: true },
      'now the last',
    );
    t.equal((await owner.as(second).post('/users/1/reactivate')).status, 200, 'the first owner is back');
  });

  await t.test('POST /users/me/api_key/regenerate: a new key, the old one refused at once', async (t) => {
    const credentials = await createMember(owner, 'Rotator');
    const res = await owner.as(credentials).post('/users/me/api_key/regenerate');
    t.equal(res.status, 200, res.text);
    const newKey = res.body['api_key'] as string;
    t.match(newKey, /^[A-Za-z0-9]{32}$/, 'a 32-character key');
    t.not(newKey, credentials.key, 'not the old one');
    const old = await owner.as(credentials).get('/users/me');
    t.equal(old.status, 401);
    t.strictSame(old.body, { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' }, 'the old key fails');
    t.equal((await owner.as({ email: credentials.email, key: newKey }).get('/users/me')).status, 200, 'the new key works');
  });
});
