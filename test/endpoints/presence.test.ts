import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { responseViolations } from '../helpers/openapi';
import { RealmFile } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

// POST /users/me/presence, GET /realm/presence, GET /users/{user_id_or_email}/presence,
// register's presences and the presence event (api-notes §d, §e; openapi get-presence).

type Presences = Record<string, Record<string, Record<string, unknown>>>;

t.test('presence', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const aliceCredentials = await createMember(owner, 'Alice');
  const alice = owner.as(aliceCredentials);
  const bobCredentials = await createMember(owner, 'Bob');
  const bob = owner.as(bobCredentials);

  await t.test('errors', async (t) => {
    await t.test('an unknown status is refused', async (t) => {
      const res = await alice.post('/users/me/presence', { status: 'away' });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'Invalid status: away', code: 'BAD_REQUEST' });
    });
    await t.test('a missing status is refused', async (t) => {
      const res = await alice.post('/users/me/presence', {});
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: "Missing 'status' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'status' });
    });
    await t.test("an unknown user's presence is refused", async (t) => {
      const res = await alice.get('/users/9999/presence');
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
    });
    await t.test('a user who never pinged has no presence data', async (t) => {
      const res = await alice.get(`/users/${bobCredentials.email}/presence`);
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: `No presence data for ${bobCredentials.email}`, code: 'BAD_REQUEST' });
    });
  });

  let aliceActiveAt = 0;
  await t.test('a first ping announces the user online and answers with everyone', async (t) => {
    const watcher = await EventReader.register(bob, { event_types: ['presence'] });
    const res = await alice.post('/users/me/presence', { status: 'active', new_user_input: true });
    t.equal(res.status, 200, res.text);
    t.type(res.body['server_timestamp'], 'number');
    const mine = (res.body['presences'] as Presences)[aliceCredentials.email];
    aliceActiveAt = Number(mine?.['aggregated']?.['timestamp']);
    t.ok(aliceActiveAt > 0, 'the timestamp is a UNIX time in seconds');
    t.strictSame(mine, {
      website: { client: 'website', status: 'active', timestamp: aliceActiveAt, pushable: false },
      aggregated: { client: 'website', status: 'active', timestamp: aliceActiveAt },
    });
    const events = await watcher.nextPayloads();
    t.equal(events.length, 1);
    hasFields(t, events[0], {
      type: 'presence',
      user_id: aliceCredentials.id,
      email: aliceCredentials.email,
      presence: { website: { client: 'website', status: 'active', timestamp: aliceActiveAt, pushable: false } },
    });
  });

  await t.test('a ping that changes nothing others see is not announced', async (t) => {
    const watcher = await EventReader.register(bob, { event_types: ['presence'] });
    await alice.post('/users/me/presence', { status: 'active' });
    // Idle right after an active ping still shows active (the public API's 70-second window).
    await alice.post('/users/me/presence', { status: 'idle' });
    t.strictSame(await watcher.nextPayloads(), []);
  });

  await t.test('a first idle ping shows the user idle', async (t) => {
    const watcher = await EventReader.register(alice, { event_types: ['presence'] });
    await bob.post('/users/me/presence', { status: 'idle' });
    const events = await watcher.nextPayloads();
    hasFields(t, events, [{ type: 'presence', user_id: bobCredentials.id, presence: { website: { status: 'idle' } } }]);
  });

  await t.test('ping_only answers with the bare envelope', async (t) => {
    const res = await alice.post('/users/me/presence', { status: 'active', ping_only: true });
    t.strictSame(res.body, { result: 'success', msg: '' });
  });

  await t.test('slim_presence keys the answer and register by user ID', async (t) => {
    const res = await alice.post('/users/me/presence', { status: 'active', slim_presence: true });
    const mine = (res.body['presences'] as Record<string, Record<string, number>>)[String(aliceCredentials.id)];
    t.strictSame(Object.keys(mine ?? {}).sort(), ['active_timestamp', 'idle_timestamp']);
    t.ok((mine?.['active_timestamp'] ?? 0) >= aliceActiveAt);
    const slim = await bob.post('/register', { fetch_event_types: ['presence'], slim_presence: true });
    t.ok(String(aliceCredentials.id) in (slim.body['presences'] as object));
    const legacy = await bob.post('/register', { fetch_event_types: ['presence'] });
    t.ok(aliceCredentials.email in (legacy.body['presences'] as object));
    t.type(legacy.body['server_timestamp'], 'number');
  });

  await t.test('GET /realm/presence and GET /users/{user_id_or_email}/presence', async (t) => {
    const realm = await bob.get('/realm/presence');
    t.equal(realm.status, 200, realm.text);
    t.strictSame(responseViolations('get', '/realm/presence', realm.body), [], 'the body conforms to the reference OpenAPI');
    t.strictSame(Object.keys(realm.body['presences'] as object).sort(), [aliceCredentials.email, bobCredentials.email].sort());
    for (const key of [String(aliceCredentials.id), aliceCredentials.email]) {
      const one = await bob.get(`/users/${encodeURIComponent(key)}/presence`);
      t.equal(one.status, 200, one.text);
      t.strictSame(
        responseViolations('get', '/users/{user_id_or_email}/presence', one.body),
        [],
        'the body conforms to the reference OpenAPI',
      );
      hasFields(t, one.body['presence'], { website: { status: 'active' }, aggregated: { status: 'active' } });
      t.notOk('client' in ((one.body['presence'] as Presences)['aggregated'] ?? {}), 'only status and timestamp');
    }
  });

  await t.test('a user with presence_enabled off appears offline to others and is not recorded', async (t) => {
    await alice.post('/users/me/status', { away: true });
    const watcher = await EventReader.register(bob, { event_types: ['presence'] });
    await alice.post('/users/me/presence', { status: 'active' });
    t.strictSame(await watcher.nextPayloads(), []);
    t.notOk(aliceCredentials.email in ((await bob.get('/realm/presence')).body['presences'] as object));
    const one = await bob.get(`/users/${aliceCredentials.id}/presence`);
    t.strictSame(one.body, { result: 'error', msg: `No presence data for ${aliceCredentials.id}`, code: 'BAD_REQUEST' });
    await alice.post('/users/me/status', { away: false });
    t.ok(aliceCredentials.email in ((await bob.get('/realm/presence')).body['presences'] as object), 'back once enabled again');
  });

  await t.test("the realm's presence_disabled hides everyone's presence", async (t) => {
    const changed = await owner.call('PATCH', '/realm', { presence_disabled: true });
    t.strictSame(changed.body, { result: 'success', msg: '', presence_disabled: true });
    const watcher = await EventReader.register(bob, { event_types: ['presence'] });
    await owner.post('/users/me/presence', { status: 'active' });
    t.strictSame(await watcher.nextPayloads(), [], 'no presence event');
    t.strictSame((await bob.get('/realm/presence')).body['presences'], {});
    t.strictSame((await bob.post('/register', { fetch_event_types: ['presence', 'realm'] })).body['realm_presence_disabled'], true);
    await owner.call('PATCH', '/realm', { presence_disabled: false });
    t.ok(aliceCredentials.email in ((await bob.get('/realm/presence')).body['presences'] as object));
  });
});

t.test('presence survives a restart', async (t) => {
  await t.test('a graceful stop flushes what is in memory', async (t) => {
    // The default flush interval (a minute) does not run within this test: only the stop flushes.
    const first = await startServer();
    const owner = new ApiClient(first.baseUrl, first.owner);
    const before = (await owner.post('/users/me/presence', { status: 'active' })).body['presences'] as Presences;
    t.equal(await first.stop(), 0);
    const second = await startServer({ dataDir: first.dataDir, port: first.port });
    t.teardown(() => second.stop());
    const after = await new ApiClient(second.baseUrl, second.owner).get('/realm/presence');
    t.strictSame(after.body['presences'], before);
  });

  await t.test('the periodic flush writes presence without a stop', async (t) => {
    const first = await startServer({ env: { PRESENCE_FLUSH_INTERVAL_MS: '20' } });
    const owner = new ApiClient(first.baseUrl, first.owner);
    const before = (await owner.post('/users/me/presence', { status: 'active' })).body['presences'] as Presences;
    const file = new RealmFile(first);
    // Wait for the flush's row (a condition, bounded), then crash: only a flush saved it.
    const deadline = Date.now() + 10_000;
    while (file.value('SELECT count(*) FROM user_presence') === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    file.close();
    await first.kill();
    const second = await startServer({ dataDir: first.dataDir, port: first.port });
    t.teardown(() => second.stop());
    const after = await new ApiClient(second.baseUrl, second.owner).get('/realm/presence');
    t.strictSame(after.body['presences'], before);
  });
});
