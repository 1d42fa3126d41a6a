import t from 'tap';
import { ApiClient, request } from '../helpers/http';
import { createMember } from '../helpers/fixtures';
import { deactivateUser } from '../helpers/people';
import { startServer } from '../helpers/server';

// SPEC §Authentication, api-notes §f.
t.test('authentication', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);

  t.test('no credentials: 401, a Basic challenge, the spec message and no code', async (t) => {
    const res = await api.as(null).get('/users/me');
    t.equal(res.status, 401);
    t.match(res.headers['www-authenticate'], /^Basic realm="[^"]+"$/);
    t.strictSame(res.body, { result: 'error', msg: 'Not logged in: API authentication or user session required' });
  });

  t.test('an unparsable Authorization header is 401', async (t) => {
    for (const header of ['Bearer abc', 'Basic', 'Basic !!!notbase64', 'Basic ' + Buffer.from('no-colon').toString('base64')]) {
      const res = await request({ baseUrl: server.baseUrl, method: 'GET', path: '/api/v1/users/me', headers: { Authorization: header } });
      t.equal(res.status, 401, header);
      t.match(res.headers['www-authenticate'], /^Basic realm="[^"]+"$/);
      t.equal(res.body['result'], 'error');
      t.match(String(res.body['msg']), /API authentication or user session required/);
      t.notOk('code' in res.body);
    }
  });

  t.test('a wrong key is 401 INVALID_API_KEY', async (t) => {
    const res = await api.as({ email: server.owner.email, key: 'x'.repeat(32) }).get('/users/me');
    t.equal(res.status, 401);
    t.strictSame(res.body, { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' });
    const unknown = await api.as({ email: 'nobody@example.com', key: server.owner.key }).get('/users/me');
    t.equal(unknown.status, 401);
    t.equal(unknown.body['code'], 'INVALID_API_KEY');
  });

  t.test('the email is matched without regard to case', async (t) => {
    const res = await api.as({ email: server.owner.email.toUpperCase(), key: server.owner.key }).get('/users/me');
    t.equal(res.status, 200);
  });

  t.test('a deactivated user is 401 USER_DEACTIVATED', async (t) => {
    const member = await createMember(api);
    await deactivateUser(api, member.id);
    const res = await api.as(member).get('/users/me');
    t.equal(res.status, 401);
    t.strictSame(res.body, { result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' });
  });

  t.test('unauthenticated endpoints need no credentials', async (t) => {
    const res = await api.as(null).get('/server_settings');
    t.equal(res.status, 200);
  });

  t.test('API keys are 32 characters', async (t) => {
    t.equal(server.owner.key.length, 32);
    t.match(server.owner.key, /^[A-Za-z0-9]{32}$/);
  });
});
