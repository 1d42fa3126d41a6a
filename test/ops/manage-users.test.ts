import t from 'tap';
import { EventReader } from '../helpers/events';
import { ApiClient } from '../helpers/http';
import { json, manage, type CliUser } from '../helpers/manage';
import { startServer, type Credentials } from '../helpers/server';

// issue 23 "Management CLI": the account and realm commands, against a running server (the
// change shows at once in the API and its events) and on the files with no server.

const DEACTIVATED_REALM = { result: 'error', msg: 'This organization has been deactivated', code: 'REALM_DEACTIVATED' };

t.test('commands against a running server take effect at once', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const env = { DATA_DIR: server.dataDir, EXTERNAL_HOST: `localhost:${server.port}` };
  const api = new ApiClient(server.baseUrl, server.owner);
  const people = await EventReader.register(api, { event_types: ['realm_user'] });
  const as = (credentials: Credentials): ApiClient => api.as(credentials);

  const alice = json<CliUser>(manage(['create-user', '--email', 'alice@example.com', '--full-name', 'Alice', '--json'], env));
  t.strictSame(alice, {
    user_id: alice.user_id,
    email: 'alice@example.com',
    full_name: 'Alice',
    role: 'member',
    is_bot: false,
    is_active: true,
    api_key: alice.api_key,
    password: alice.password,
  });
  const aliceKey = { email: alice.email, key: String(alice.api_key) };
  t.strictSame((await as(aliceKey).get('/users/me')).body['user_id'], alice.user_id, 'the new key works at once');
  t.strictSame(
    (await people.next()).map((e) => [e['op'], (e['person'] as { user_id: number }).user_id]),
    [['add', alice.user_id]],
  );

  await t.test('create-user with a role, and a bot', async (t) => {
    const guest = json<CliUser>(
      manage(['create-user', '--email', 'gus@example.com', '--full-name', 'Gus', '--role', 'guest', '--json'], env),
    );
    t.equal(((await api.get(`/users/${guest.user_id}`)).body['user'] as { role: number }).role, 600);
    const bot = json<CliUser>(manage(['create-user', '--email', 'helper@example.com', '--full-name', 'Helper', '--bot', '--json'], env));
    t.strictSame({ email: bot.email, is_bot: bot.is_bot, role: bot.role }, { email: `helper-bot@localhost`, is_bot: true, role: 'member' });
    const me = await as({ email: bot.email, key: String(bot.api_key) }).get('/users/me');
    t.strictSame([me.status, me.body['is_bot']], [200, true]);
    await people.next();
  });

  await t.test('change-role is announced and visible', async (t) => {
    const changed = json<CliUser>(manage(['change-role', '--email', alice.email, '--role', 'administrator', '--json'], env));
    t.equal(changed.role, 'administrator');
    t.strictSame(await people.nextPayloads(), [{ type: 'realm_user', op: 'update', person: { user_id: alice.user_id, role: 200 } }]);
    t.equal(((await api.get(`/users/${alice.user_id}`)).body['user'] as { role: number }).role, 200);
  });

  await t.test('reset-api-key: the old key fails and the new one works, at once', async (t) => {
    const reset = manage(['reset-api-key', '--email', alice.email], env);
    t.equal(reset.status, 0, reset.stderr);
    const key = /^api_key: (\S+)$/m.exec(reset.stdout)?.[1] ?? '';
    t.equal(reset.stdout, `new API key for user ${alice.user_id} ${alice.email}\napi_key: ${key}\n`);
    t.equal((await as(aliceKey).get('/users/me')).status, 401);
    t.equal((await as({ email: alice.email, key }).get('/users/me')).status, 200);
    aliceKey.key = key;
  });

  await t.test('change-password: the new password signs in', async (t) => {
    const changed = json<CliUser>(manage(['change-password', '--email', alice.email, '--password', 'correct horse', '--json'], env));
    t.strictSame(changed, { user_id: alice.user_id, email: alice.email, password: 'correct horse' });
    const fetched = await api.as(null).post('/fetch_api_key', { username: alice.email, password: 'correct horse' });
    t.strictSame([fetched.status, fetched.body['api_key']], [200, aliceKey.key]);
  });

  await t.test("deactivate-user: everyone's clients hear realm_user remove and the user's queues end", async (t) => {
    const own = await EventReader.register(as(aliceKey), { event_types: ['message'] });
    const gone = json<CliUser>(manage(['deactivate-user', '--email', alice.email, '--json'], env));
    t.strictSame([gone.is_active, gone.role], [false, 'administrator']);
    t.strictSame(await people.nextPayloads(), [
      { type: 'realm_user', op: 'remove', person: { user_id: alice.user_id, full_name: 'Alice' } },
    ]);
    const refused = await as(aliceKey).get('/users/me');
    t.strictSame([refused.status, refused.body['code']], [401, 'USER_DEACTIVATED']);
    const poll = await api.get('/events', { queue_id: own.queueId, last_event_id: -1, dont_block: true });
    t.equal(poll.body['code'], 'BAD_EVENT_QUEUE_ID');
    const back = json<CliUser>(manage(['reactivate-user', '--email', alice.email, '--json'], env));
    t.equal(back.is_active, true);
    t.equal((await as(aliceKey).get('/users/me')).status, 200);
    t.strictSame(
      (await people.next()).map((e) => [e['op'], (e['person'] as { user_id: number }).user_id]),
      [['add', alice.user_id]],
    );
  });

  await t.test('list-users lists everyone', async (t) => {
    const listed = json<{ users: CliUser[] }>(manage(['list-users', '--json'], env));
    t.strictSame(
      listed.users.map((u) => [u.email, u.role, u.is_bot, u.is_active]),
      [
        [server.owner.email, 'owner', false, true],
        ['alice@example.com', 'administrator', false, true],
        ['gus@example.com', 'guest', false, true],
        ['helper-bot@localhost', 'member', true, true],
      ],
    );
    const table = manage(['list-users'], env);
    t.equal(table.stdout.split('\n')[0], 'ID  EMAIL                 NAME                ROLE           STATUS');
  });

  await t.test('deactivate-realm tells clients and locks everyone out; reactivate-realm lets them in again', async (t) => {
    const watcher = await EventReader.register(api, { event_types: ['realm'] });
    const other = await EventReader.register(api, { event_types: ['message'] });
    const parked = api.get('/events', { queue_id: watcher.queueId, last_event_id: -1 });
    await other.next();
    t.strictSame(json(manage(['deactivate-realm', '--json'], env)), { realm: 'default', deactivated: true });
    t.strictSame((await parked).body, { result: 'success', msg: '', events: [{ type: 'realm', op: 'deactivated', realm_id: 1, id: 0 }] });
    t.strictSame((await api.get('/users/me')).body, DEACTIVATED_REALM);
    const again = manage(['deactivate-realm'], env);
    t.strictSame([again.status, again.stderr], [1, 'error: The organization is already deactivated\n']);
    t.equal(manage(['reactivate-realm'], env).stdout, 'reactivated realm default\n');
    t.equal((await api.get('/users/me')).status, 200);
  });
});
