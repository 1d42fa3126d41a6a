import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember } from '../helpers/fixtures';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

t.test('accounts', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const anonymous = api.as(null);

  t.test('GET /server_settings describes the server and the realm without credentials', async (t) => {
    const res = await anonymous.get('/server_settings');
    t.equal(res.status, 200);
    hasFields(t, res.body, {
      result: 'success',
      msg: '',
      service_feature_level: 185,
      service_version: String,
      service_merge_base: String,
      push_notifications_enabled: false,
      is_incompatible: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      realm_uri: `http://localhost:${server.port}`,
      realm_name: String,
      realm_icon: String,
      realm_description: String,
    });
    t.equal((res.body['authentication_methods'] as Record<string, boolean>)['password'], true);
  });

  t.test('POST /fetch_api_key returns the key for the right password', async (t) => {
    const res = await anonymous.post('/fetch_api_key', { username: server.owner.email, password: server.owner.password }, 'multipart');
    t.equal(res.status, 200);
    t.strictSame(res.body, { result: 'success', msg: '', api_key: server.owner.key, email: server.owner.email, user_id: 1 });
  });

  t.test('POST /fetch_api_key with a wrong password or unknown user is 401 AUTHENTICATION_FAILED', async (t) => {
    for (const [username, password] of [
      [server.owner.email, 'wrong'],
      ['nobody@example.com', 'whatever'],
    ] as const) {
      const res = await anonymous.post('/fetch_api_key', { username, password });
      t.equal(res.status, 401);
      t.strictSame(res.body, { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' });
    }
    const missing = await anonymous.post('/fetch_api_key', { username: server.owner.email });
    t.equal(missing.body['code'], 'REQUEST_VARIABLE_MISSING');
  });

  t.test('POST /users creates a member who can log in and is subscribed to the default streams', async (t) => {
    const member = await createMember(api, 'Cordelia');
    const me = await api.as(member).get('/users/me');
    t.equal(me.status, 200);
    hasFields(t, me.body, {
      email: member.email,
      delivery_email: member.email,
      role: 400,
      is_admin: false,
      is_owner: false,
      user_id: member.id,
    });
    const streams = await api.as(member).get('/streams', { include_public: false });
    t.strictSame(
      (streams.body['streams'] as { name: string }[]).map((s) => s.name),
      ['general'],
    );
  });

  t.test('POST /users errors: not an administrator, duplicate email, bad email, bad name', async (t) => {
    const member = await createMember(api);
    const notAdmin = await api.as(member).post('/users', { email: 'x@example.com', password: 'p', full_name: 'X' });
    t.equal(notAdmin.status, 400);
    t.strictSame(notAdmin.body, { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    const duplicate = await api.post('/users', { email: member.email, password: 'p', full_name: 'Again' });
    t.strictSame(duplicate.body, { result: 'error', msg: `Email '${member.email}' already in use`, code: 'BAD_REQUEST' });
    const badEmail = await api.post('/users', { email: 'not-an-email', password: 'p', full_name: 'X' });
    t.strictSame(badEmail.body, { result: 'error', msg: "Invalid email 'not-an-email'", code: 'BAD_REQUEST' });
    const badName = await api.post('/users', { email: 'blank@example.com', password: 'p', full_name: '   ' });
    t.strictSame(badName.body, { result: 'error', msg: 'Name too short!', code: 'BAD_REQUEST' });
    const missing = await api.post('/users', { email: 'y@example.com', full_name: 'Y' });
    t.strictSame(missing.body, {
      result: 'error',
      msg: "Missing 'password' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'password',
    });
  });

  t.test('GET /users/me has exactly the own-user fields of the spec', async (t) => {
    const res = await api.get('/users/me');
    t.strictSame(Object.keys(res.body).sort(), [
      'avatar_url',
      'avatar_version',
      'date_joined',
      'delivery_email',
      'email',
      'full_name',
      'is_active',
      'is_admin',
      'is_billing_admin',
      'is_bot',
      'is_guest',
      'is_owner',
      'max_message_id',
      'msg',
      'profile_data',
      'result',
      'role',
      'timezone',
      'user_id',
    ]);
    hasFields(t, res.body, { is_owner: true, is_admin: true, role: 100, is_bot: false, is_active: true, user_id: 1 });
    t.match(String(res.body['date_joined']), /^\d{4}-\d\d-\d\dT/);
  });

  t.test('max_message_id follows the messages the user received', async (t) => {
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'max', content: 'x' });
    const me = await api.get('/users/me');
    t.equal(me.body['max_message_id'], sent.body['id']);
  });
});
