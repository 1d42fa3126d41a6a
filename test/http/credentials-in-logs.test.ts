import t from 'tap';
import { ApiClient, basicAuth, request } from '../helpers/http';
import { SessionClient, signIn } from '../helpers/session';
import { startServer } from '../helpers/server';

const WRONG_PASSWORD = 'not-the-password-4c1f9e';

t.test('no credential a client sends or receives appears in the server log', async (t) => {
  // The most verbose level: whatever any line could carry is in the output.
  const server = await startServer({ env: { LOG_LEVEL: 'trace' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);

  const fetched = await api.as(null).post('/fetch_api_key', { username: server.owner.email, password: server.owner.password });
  t.equal(fetched.status, 200);
  const fetchedKey = String(fetched.body['api_key']);
  const refused = await api.as(null).post('/fetch_api_key', { username: server.owner.email, password: WRONG_PASSWORD });
  t.equal(refused.status, 401);

  t.equal((await api.get('/users/me')).status, 200, 'an API-key request');
  const inQuery = await request({
    baseUrl: server.baseUrl,
    method: 'GET',
    path: '/api/v1/users/me',
    params: { api_key: fetchedKey },
    auth: server.owner,
  });
  t.equal(inQuery.status, 200, 'a request that also carries the key in its query');
  const message = await api.post('/messages', { type: 'stream', to: 'general', topic: 'logs', content: 'hello' });
  t.equal(message.status, 200, 'a write with an API key');

  const session = await signIn(server.baseUrl, server.owner.email, server.owner.password);
  const web = new SessionClient(server.baseUrl, session);
  t.equal((await web.get('/users/me')).status, 200, 'a session-cookie read');
  t.equal((await web.post('/users/me/presence', { status: 'active' })).status, 200, 'a session-cookie write with the CSRF token');
  t.equal((await web.post('/users/me/presence', { status: 'active' }, { csrf: 'forged-token-0a7e' })).status, 403, 'a forged CSRF token');
  const logout = await request({
    baseUrl: server.baseUrl,
    method: 'POST',
    path: '/logout',
    headers: { ...web.cookieHeader(), 'X-CSRF-Token': session.csrfToken },
  });
  t.equal(logout.status, 200, 'signing out');

  await server.stop();
  const output = server.output();
  t.ok(output.includes('"msg":"request"'), 'the log has request lines to search');
  const secrets: Record<string, string> = {
    'the password': server.owner.password,
    'a wrong password': WRONG_PASSWORD,
    'the API key': server.owner.key,
    'the fetched API key': fetchedKey,
    'the Authorization header': basicAuth(server.owner).slice('Basic '.length),
    'the session ID': session.sessionId,
    'the CSRF token': session.csrfToken,
    'a forged CSRF token': 'forged-token-0a7e',
  };
  t.strictSame(
    Object.entries(secrets)
      .filter(([, secret]) => output.includes(secret))
      .map(([name]) => name),
    [],
    'no secret in the log',
  );
});
