import t from 'tap';
import { postLogin, setCookies } from '../helpers/session';
import { startServer } from '../helpers/server';

const FORWARDED_HTTPS = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.7' };

/** Whether each session cookie POST /login sets carries the Secure attribute. */
async function secureFlags(
  baseUrl: string,
  owner: { email: string; password: string },
  headers: Record<string, string>,
): Promise<boolean[]> {
  const res = await postLogin(baseUrl, owner.email, owner.password, headers);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return setCookies(res).map((cookie) => /;\s*Secure(;|$)/i.test(cookie));
}

t.test('X-Forwarded-Proto is believed from a trusted proxy: the session cookies are Secure', async (t) => {
  // The test client connects from 127.0.0.1, trusted by default (loopback).
  const server = await startServer();
  t.teardown(() => server.stop());
  t.strictSame(await secureFlags(server.baseUrl, server.owner, FORWARDED_HTTPS), [true, true]);
  t.strictSame(await secureFlags(server.baseUrl, server.owner, { 'X-Forwarded-Proto': 'http' }), [false, false]);
});

t.test('X-Forwarded-Proto from an address not listed is ignored: a client cannot claim HTTPS', async (t) => {
  const server = await startServer({ env: { TRUSTED_PROXIES: '10.0.0.0/8, 2001:db8::1' } });
  t.teardown(() => server.stop());
  t.strictSame(await secureFlags(server.baseUrl, server.owner, FORWARDED_HTTPS), [false, false]);
});

t.test('TRUSTED_PROXIES=none trusts no one, loopback included', async (t) => {
  const server = await startServer({ env: { TRUSTED_PROXIES: 'none' } });
  t.teardown(() => server.stop());
  t.strictSame(await secureFlags(server.baseUrl, server.owner, FORWARDED_HTTPS), [false, false]);
});
