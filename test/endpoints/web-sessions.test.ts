import { createHash } from 'node:crypto';
import t from 'tap';
import { ApiClient, request } from '../helpers/http';
import { RealmFile } from '../helpers/realm-file';
import { startServer, type TestServer } from '../helpers/server';
import { cookieFrom, postLogin, SessionClient, setCookies, signIn } from '../helpers/session';
import { hasFields } from '../helpers/exact';

// issue 10 "Signing in": POST /login and /logout, the session cookie, /json with CSRF, and
// /api/v1 kept to Basic auth.

const NOT_LOGGED_IN = { result: 'error', msg: 'Not logged in: API authentication or user session required' };
const WRONG_PASSWORD = { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' };
const TWO_WEEKS_SECONDS = 14 * 24 * 60 * 60;

let counter = 0;

/** A member with a password this test knows. */
async function newMember(owner: ApiClient): Promise<{ id: number; email: string; password: string }> {
  counter++;
  const email = `web${counter}-${process.pid}@example.com`;
  const password = `web-secret-${counter}`;
  const res = await owner.post('/users', { email, password, full_name: `Web Person ${counter}` });
  if (res.status !== 200) throw new Error(res.text);
  return { id: Number(res.body['user_id']), email, password };
}

function sessionRow(file: RealmFile, sessionId: string): unknown {
  return file.value('SELECT user_id FROM sessions WHERE token_hash = ?', sha256(sessionId));
}

/** How the realm file keys a session (migration 15). */
function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

t.test('web sessions', async (t) => {
  let server: TestServer = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  let file = new RealmFile(server);
  t.teardown(() => file.close());

  t.test('POST /login answers the user id and sets the session and CSRF cookies', async (t) => {
    const res = await postLogin(server.baseUrl, server.owner.email, server.owner.password);
    t.equal(res.status, 200);
    t.strictSame(res.body, { result: 'success', msg: '', user_id: 1 });
    const cookies = setCookies(res);
    t.equal(cookies.length, 2, 'two Set-Cookie headers');
    const sessionId = cookieFrom(cookies, 'sessionid') ?? '';
    const csrfToken = cookieFrom(cookies, 'csrftoken') ?? '';
    t.match(sessionId, /^[A-Za-z0-9_-]{40,}$/);
    t.match(csrfToken, /^[A-Za-z0-9_-]{40,}$/);
    t.not(sessionId, csrfToken);
    t.strictSame(cookies, [
      `sessionid=${sessionId}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${TWO_WEEKS_SECONDS}`,
      `csrftoken=${csrfToken}; Path=/; SameSite=Lax; Max-Age=${TWO_WEEKS_SECONDS}`,
    ]);
    t.equal(sessionRow(file, sessionId), 1, 'the realm file holds the session under its hash');
    t.equal(file.value('SELECT COUNT(*) FROM sessions WHERE token_hash = ?', sessionId), 0, 'and never the token itself');
  });

  t.test('the cookies are Secure only when a TLS-terminating proxy says https', async (t) => {
    const tls = setCookies(await postLogin(server.baseUrl, server.owner.email, server.owner.password, { 'X-Forwarded-Proto': 'https' }));
    t.equal(tls.length, 2);
    for (const cookie of tls) t.ok(cookie.endsWith('; Secure'), cookie);
    const plain = setCookies(await postLogin(server.baseUrl, server.owner.email, server.owner.password, { 'X-Forwarded-Proto': 'http' }));
    for (const cookie of plain) t.notOk(cookie.includes('Secure'), cookie);
  });

  t.test('POST /login refuses a wrong password or unknown user as POST /fetch_api_key does, setting no cookie', async (t) => {
    const member = await newMember(owner);
    for (const [username, password] of [
      [member.email, 'wrong'],
      ['nobody@example.com', 'whatever'],
    ] as const) {
      const login = await postLogin(server.baseUrl, username, password);
      const fetchKey = await owner.as(null).post('/fetch_api_key', { username, password });
      t.equal(login.status, 401);
      t.strictSame(login.body, WRONG_PASSWORD);
      t.strictSame(login.body, fetchKey.body);
      t.strictSame(setCookies(login), []);
    }
    const missing = await request({ baseUrl: server.baseUrl, method: 'POST', path: '/login', params: { username: member.email } });
    t.equal(missing.body['code'], 'REQUEST_VARIABLE_MISSING');
  });

  t.test('a deactivated user cannot sign in, and deactivation ends their sessions', async (t) => {
    const member = await newMember(owner);
    const web = new SessionClient(server.baseUrl, await signIn(server.baseUrl, member.email, member.password));
    t.equal((await web.get('/users/me')).status, 200);
    t.equal((await owner.call('DELETE', `/users/${member.id}`)).status, 200);
    const me = await web.get('/users/me');
    t.equal(me.status, 401);
    t.strictSame(me.body, NOT_LOGGED_IN);
    const login = await postLogin(server.baseUrl, member.email, member.password);
    t.equal(login.status, 401);
    t.strictSame(login.body, { result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' });
    t.equal(file.value('SELECT COUNT(*) FROM sessions WHERE user_id = ?', member.id), 0);
  });

  t.test('GET /json/... works with the session cookie alone', async (t) => {
    const web = new SessionClient(server.baseUrl, await signIn(server.baseUrl, server.owner.email, server.owner.password));
    const me = await web.call('GET', '/users/me', {}, { csrf: null });
    t.equal(me.status, 200);
    hasFields(t, me.body, { result: 'success', user_id: 1, email: server.owner.email });
  });

  t.test('a write through /json needs the session CSRF token in X-CSRF-Token', async (t) => {
    const session = await signIn(server.baseUrl, server.owner.email, server.owner.password);
    const web = new SessionClient(server.baseUrl, session);
    const message = { type: 'stream', to: 'general', topic: 'csrf', content: 'through the page' };
    const missing = await web.post('/messages', message, { csrf: null });
    t.equal(missing.status, 403);
    t.strictSame(missing.body, {
      result: 'error',
      msg: 'CSRF error: CSRF token missing.',
      code: 'CSRF_FAILED',
      reason: 'CSRF token missing.',
    });
    const other = await signIn(server.baseUrl, server.owner.email, server.owner.password);
    const wrong = await web.post('/messages', message, { csrf: other.csrfToken });
    t.equal(wrong.status, 403);
    t.strictSame(wrong.body, {
      result: 'error',
      msg: 'CSRF error: CSRF token incorrect.',
      code: 'CSRF_FAILED',
      reason: 'CSRF token incorrect.',
    });
    const sent = await web.post('/messages', message);
    t.equal(sent.status, 200);
    hasFields(t, sent.body, { result: 'success', id: Number });
  });

  t.test('/api/v1 takes no session cookie, and /json takes no API key', async (t) => {
    const session = await signIn(server.baseUrl, server.owner.email, server.owner.password);
    const web = new SessionClient(server.baseUrl, session);
    const api = await request({ baseUrl: server.baseUrl, method: 'GET', path: '/api/v1/users/me', headers: web.cookieHeader() });
    t.equal(api.status, 401);
    t.strictSame(api.body, NOT_LOGGED_IN);
    t.equal(api.headers['www-authenticate'], 'Session realm="teamchat"', 'a browser with its session gets no Basic password prompt');
    const noCredentials = await request({ baseUrl: server.baseUrl, method: 'GET', path: '/api/v1/users/me' });
    t.match(String(noCredentials.headers['www-authenticate']), /^Basic /, 'API clients still get the Basic challenge');
    const basicOnly = await new ApiClient(server.baseUrl, server.owner).call('GET', '/users/me');
    t.equal(basicOnly.status, 200, 'Basic auth still works on /api/v1');
    const jsonWithKey = await request({ baseUrl: server.baseUrl, method: 'GET', path: '/json/users/me', auth: server.owner });
    t.equal(jsonWithKey.status, 401);
    t.strictSame(jsonWithKey.body, NOT_LOGGED_IN);
    t.notMatch(String(jsonWithKey.headers['www-authenticate']), /Basic/, 'no Basic challenge: the browser must not prompt');
    const bogus = await new SessionClient(server.baseUrl, { sessionId: 'not-a-session', csrfToken: session.csrfToken }).get('/users/me');
    t.equal(bogus.status, 401);
  });

  t.test('unauthenticated routes stay open on /json, and unknown ones are JSON 404s', async (t) => {
    const settings = await new SessionClient(server.baseUrl, null).get('/server_settings');
    t.equal(settings.status, 200);
    t.equal(settings.body['result'], 'success');
    const unknown = await new SessionClient(server.baseUrl, null).get('/no_such_thing');
    t.equal(unknown.status, 404);
    t.equal(unknown.body['result'], 'error');
  });

  t.test('POST /logout needs the session and its CSRF token, ends it and clears both cookies', async (t) => {
    const session = await signIn(server.baseUrl, server.owner.email, server.owner.password);
    const web = new SessionClient(server.baseUrl, session);
    const noSession = await request({
      baseUrl: server.baseUrl,
      method: 'POST',
      path: '/logout',
      headers: { 'X-CSRF-Token': session.csrfToken },
    });
    t.equal(noSession.status, 401);
    t.equal(noSession.headers['www-authenticate'], 'Session realm="teamchat"', 'no Basic password prompt');
    const noCsrf = await request({ baseUrl: server.baseUrl, method: 'POST', path: '/logout', headers: web.cookieHeader() });
    t.equal(noCsrf.status, 403);
    t.equal(noCsrf.body['code'], 'CSRF_FAILED');
    t.equal((await web.get('/users/me')).status, 200, 'a refused logout leaves the session');
    const logout = await request({
      baseUrl: server.baseUrl,
      method: 'POST',
      path: '/logout',
      headers: { ...web.cookieHeader(), 'X-CSRF-Token': session.csrfToken },
    });
    t.equal(logout.status, 200);
    t.strictSame(logout.body, { result: 'success', msg: '' });
    t.strictSame(setCookies(logout), [
      'sessionid=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0',
      'csrftoken=; Path=/; SameSite=Lax; Max-Age=0',
    ]);
    t.equal((await web.get('/users/me')).status, 401);
    t.equal(sessionRow(file, session.sessionId), undefined);
    const again = await request({
      baseUrl: server.baseUrl,
      method: 'POST',
      path: '/logout',
      headers: { ...web.cookieHeader(), 'X-CSRF-Token': session.csrfToken },
    });
    t.equal(again.status, 401);
  });

  t.test('changing the password ends the other sessions and keeps the one that changed it', async (t) => {
    const member = await newMember(owner);
    const here = new SessionClient(server.baseUrl, await signIn(server.baseUrl, member.email, member.password));
    const elsewhere = new SessionClient(server.baseUrl, await signIn(server.baseUrl, member.email, member.password));
    const changed = await here.call('PATCH', '/settings', { old_password: member.password, new_password: 'a-new-long-password' });
    t.equal(changed.status, 200, changed.text);
    t.equal((await here.get('/users/me')).status, 200);
    t.equal((await elsewhere.get('/users/me')).status, 401);
  });

  t.test('last-seen moves at most hourly, and then the cookies are set again', async (t) => {
    const session = await signIn(server.baseUrl, server.owner.email, server.owner.password);
    const web = new SessionClient(server.baseUrl, session);
    const hash = sha256(session.sessionId);
    const fresh = await web.get('/users/me');
    t.strictSame(setCookies(fresh), [], 'no write and no cookie within the hour');
    // Kept file writes here (time travel): they move the last-seen stamp the realm clock wrote at
    // sign-in, and no endpoint does.
    const twoHoursAgo = Number(file.value('SELECT last_seen FROM sessions WHERE token_hash = ?', hash)) - 2 * 3_600_000;
    file.run('UPDATE sessions SET last_seen = ? WHERE token_hash = ?', twoHoursAgo, hash);
    const stale = await web.get('/users/me');
    t.equal(stale.status, 200);
    t.equal(setCookies(stale).length, 2, 'both cookies again, their Max-Age restarted');
    t.equal(cookieFrom(setCookies(stale), 'sessionid'), session.sessionId);
    t.ok(
      Number(file.value('SELECT last_seen FROM sessions WHERE token_hash = ?', hash)) > twoHoursAgo + 3_600_000,
      'last-seen moved to now',
    );
  });

  t.test('a session survives a restart; one idle longer than SESSION_IDLE_MS ends', async (t) => {
    const kept = await signIn(server.baseUrl, server.owner.email, server.owner.password);
    const idle = await signIn(server.baseUrl, server.owner.email, server.owner.password);
    file.close();
    const { dataDir, port } = server;
    await server.stop();
    server = await startServer({ dataDir, port, env: { SESSION_IDLE_MS: String(10 * 60_000) } });
    file = new RealmFile(server);
    const afterRestart = await new SessionClient(server.baseUrl, kept).get('/users/me');
    t.equal(afterRestart.status, 200, 'the session is in the realm file');
    t.strictSame(
      setCookies(await postLogin(server.baseUrl, server.owner.email, server.owner.password)).map((c) => /Max-Age=(\d+)/.exec(c)?.[1]),
      ['600', '600'],
    );

    // Time travel, as above: back from the stamp the realm clock wrote.
    const idleFor = (session: { sessionId: string }, ms: number) =>
      file.run('UPDATE sessions SET last_seen = last_seen - ? WHERE token_hash = ?', ms, sha256(session.sessionId));
    idleFor(kept, 5 * 60_000);
    idleFor(idle, 11 * 60_000);
    t.equal((await new SessionClient(server.baseUrl, kept).get('/users/me')).status, 200, 'five idle minutes are fine');
    const expired = await new SessionClient(server.baseUrl, idle).get('/users/me');
    t.equal(expired.status, 401);
    t.strictSame(expired.body, NOT_LOGGED_IN);
    t.equal(sessionRow(file, idle.sessionId), undefined, 'the expired session is deleted');

    const abandoned = await signIn(server.baseUrl, server.owner.email, server.owner.password);
    idleFor(abandoned, 11 * 60_000);
    await signIn(server.baseUrl, server.owner.email, server.owner.password);
    t.equal(sessionRow(file, abandoned.sessionId), undefined, 'a sign-in clears out sessions idle past expiry that nobody uses again');
    t.equal(sessionRow(file, kept.sessionId), 1, 'and keeps the live ones');
  });
});
