import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createBot, createMember } from '../helpers/fixtures';
import { responseViolations } from '../helpers/openapi';
import { deactivateUser, onePersonOfEachRole, hiddenAddress, MAX_ROLE_SEEING, updateSettings, type Person } from '../helpers/people';
import { RealmFile } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

type UserObject = Record<string, unknown>;

t.test('user reads', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const file = new RealmFile(server);
  t.teardown(() => file.close());
  const viewers: Record<string, Person> = await onePersonOfEachRole(api, server.owner);
  const target = await createMember(api, 'Target');

  t.test('an unknown user id or API email is "No such user"', async (t) => {
    const byId = await api.get('/users/999999');
    t.equal(byId.status, 400);
    t.strictSame(byId.body, { result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
    const byEmail = await api.get('/users/nobody@example.com');
    t.equal(byEmail.status, 400);
    t.strictSame(byEmail.body, { result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
  });

  t.test("the server's own system bots are not users of the realm", async (t) => {
    const systemBot = Number(file.value('SELECT id FROM users WHERE is_system_bot = 1 ORDER BY id LIMIT 1'));
    const res = await api.get(`/users/${systemBot}`);
    t.strictSame(res.body, { result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
    const members = (await api.get('/users')).body['members'] as UserObject[];
    t.notOk(members.some((m) => m['user_id'] === systemBot));
  });

  t.test('client_extavatar must be a boolean', async (t) => {
    const res = await api.get('/users', { client_extavatar: 'maybe' });
    t.equal(res.status, 400);
    t.strictSame(res.body, { result: 'error', msg: 'Argument "client_extavatar" is not valid JSON.', code: 'BAD_REQUEST' });
  });

  t.test('GET /users lists people, bots and deactivated users with every SPEC field', async (t) => {
    const gone = await createMember(api, 'Gone');
    await deactivateUser(api, gone.id);
    const res = await api.get('/users', { client_extavatar: false, include_custom_profile_fields: true });
    t.equal(res.status, 200);
    t.strictSame(responseViolations('get', '/users', res.body), []);
    const members = res.body['members'] as UserObject[];
    t.strictSame(
      members.map((m) => m['user_id']),
      [...members.map((m) => m['user_id'] as number)].sort((a, b) => a - b),
      'ordered by id',
    );
    const deactivated = members.find((m) => m['user_id'] === gone.id);
    t.equal(deactivated?.['is_active'], false);
    const me = members.find((m) => m['user_id'] === target.id) as UserObject;
    hasFields(t, me, {
      user_id: target.id,
      email: target.email,
      delivery_email: target.email,
      full_name: String(me['full_name']),
      is_active: true,
      is_owner: false,
      is_admin: false,
      is_guest: false,
      is_billing_admin: false,
      is_bot: false,
      role: 400,
      timezone: '',
      profile_data: {},
    });
    t.match(me['avatar_url'], /^https:\/\//, 'client_extavatar false: a URL');
    t.match(me['date_joined'], /^\d{4}-\d\d-\d\dT/);
  });

  t.test('profile_data only with include_custom_profile_fields', async (t) => {
    const without = (await api.get(`/users/${target.id}`)).body['user'] as UserObject;
    t.notOk('profile_data' in without);
    const withFields = (await api.get(`/users/${target.id}`, { include_custom_profile_fields: true })).body['user'] as UserObject;
    t.strictSame(withFields['profile_data'], {});
  });

  t.test('GET /users/{user_id} and /users/{email} answer one user, conforming to the reference', async (t) => {
    const byId = await api.get(`/users/${target.id}`);
    t.equal(byId.status, 200);
    t.strictSame(responseViolations('get', '/users/{user_id}', byId.body), []);
    const byEmail = await api.get(`/users/${encodeURIComponent(target.email)}`);
    t.strictSame(responseViolations('get', '/users/{email}', byEmail.body), []);
    t.strictSame(byEmail.body['user'], byId.body['user']);
    t.equal((byId.body['user'] as UserObject)['user_id'], target.id);
  });

  t.test('avatar_url is null only for client_extavatar clients that can see the real email', async (t) => {
    await api.as(target).call('PATCH', '/settings', { email_address_visibility: 3 });
    t.teardown(() => api.as(target).call('PATCH', '/settings', { email_address_visibility: 1 }));
    const forAdmin = (await api.as(viewers['admin'] as Person).get(`/users/${target.id}`)).body['user'] as UserObject;
    t.equal(forAdmin['avatar_url'], null);
    const forMember = (await api.as(viewers['member'] as Person).get(`/users/${target.id}`)).body['user'] as UserObject;
    t.match(forMember['avatar_url'], /^https:\/\//);
  });

  t.test('the email-visibility matrix: 5 settings x 5 roles, in every place a user object goes', async (t) => {
    for (const visibility of [1, 2, 3, 4, 5]) {
      const changed = await api.as(target).call('PATCH', '/settings', { email_address_visibility: visibility });
      t.equal(changed.status, 200, changed.text);
      const apiEmail = visibility === 1 ? target.email : hiddenAddress(target.id);
      for (const [roleName, viewer] of Object.entries(viewers)) {
        const sees = viewer.role <= (MAX_ROLE_SEEING[visibility] as number);
        const expected = { user_id: target.id, email: apiEmail, delivery_email: sees ? target.email : null };
        const label = `visibility ${visibility}, ${roleName}`;
        const client = api.as(viewer);
        const listed = ((await client.get('/users')).body['members'] as UserObject[]).find((m) => m['user_id'] === target.id);
        t.match(listed, expected, `${label}: GET /users`);
        t.match((await client.get(`/users/${target.id}`)).body['user'], expected, `${label}: GET /users/{id}`);
        t.match((await client.get(`/users/${encodeURIComponent(apiEmail)}`)).body['user'], expected, `${label}: GET /users/{email}`);
        const state = (await client.post('/register', { fetch_event_types: ['realm_user'] })).body;
        const registered = (state['realm_users'] as UserObject[]).find((m) => m['user_id'] === target.id);
        t.match(registered, expected, `${label}: register realm_users`);
      }
      const self = (await api.as(target).get(`/users/${target.id}`)).body['user'] as UserObject;
      hasFields(t, self, { email: apiEmail, delivery_email: target.email }, `visibility ${visibility}: always their own`);
      const own = (await api.as(target).get('/users/me')).body;
      hasFields(t, own, { email: apiEmail, delivery_email: target.email }, `visibility ${visibility}: GET /users/me`);
    }
    await api.as(target).call('PATCH', '/settings', { email_address_visibility: 1 });
  });

  t.test('a user who hides their email is not found by the real address', async (t) => {
    await api.as(target).call('PATCH', '/settings', { email_address_visibility: 4 });
    t.teardown(() => api.as(target).call('PATCH', '/settings', { email_address_visibility: 1 }));
    const byReal = await api.get(`/users/${encodeURIComponent(target.email)}`);
    t.strictSame(byReal.body, { result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
  });

  t.test("a bot's real email is always visible, and deactivated users follow the same rule", async (t) => {
    const bot = await createBot(api.as(target), 'helper');
    // the bot itself asks that its email be seen by no one, which SPEC says does not hide a bot's
    await updateSettings(api.as(bot), { email_address_visibility: 4 });
    const res = await api.as(viewers['guest'] as Person).get(`/users/${bot.id}`);
    hasFields(t, res.body['user'], { user_id: bot.id, delivery_email: bot.email, is_bot: true, bot_type: 1, bot_owner_id: target.id });
    t.notOk('profile_data' in (res.body['user'] as UserObject), 'bots have no profile_data');
    const gone = await createMember(api, 'Hidden');
    await api.as(gone).call('PATCH', '/settings', { email_address_visibility: 3 });
    await deactivateUser(api, gone.id);
    const state = (await api.as(viewers['member'] as Person).post('/register', { fetch_event_types: ['realm_user'] })).body;
    const inactive = (state['realm_non_active_users'] as UserObject[]).find((m) => m['user_id'] === gone.id);
    hasFields(t, inactive, { email: hiddenAddress(gone.id), delivery_email: null, is_active: false });
  });
});

t.test('the hidden API address works for authentication, `to`, `principals` and GET /users/{email}', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const hidden = await createMember(api, 'Hidden');
  const res = await api.as(hidden).call('PATCH', '/settings', { email_address_visibility: 4 });
  t.equal(res.status, 200);
  const address = hiddenAddress(hidden.id);

  const me = await api.as({ email: address, key: hidden.key }).get('/users/me');
  t.equal(me.status, 200, 'Basic auth with the API address');
  hasFields(t, me.body, { email: address, delivery_email: hidden.email, user_id: hidden.id });
  const wrongKey = await api.as({ email: address, key: 'x'.repeat(32) }).get('/users/me');
  t.equal(wrongKey.status, 401);
  t.strictSame(wrongKey.body, { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' });

  const sent = await api.post('/messages', { type: 'direct', to: [address], content: 'hello, hidden' });
  t.equal(sent.status, 200, sent.text);
  const received = await api.as({ email: address, key: hidden.key }).get(`/messages/${String(sent.body['id'])}`);
  t.equal(received.status, 200);

  const subscribed = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'hideout' }], principals: [address] });
  t.equal(subscribed.status, 200, subscribed.text);
  t.strictSame(subscribed.body['subscribed'], { [address]: ['hideout'] });

  const shown = await api.get(`/users/${encodeURIComponent(address)}`);
  hasFields(t, shown.body['user'], { user_id: hidden.id, email: address, delivery_email: null });
});
