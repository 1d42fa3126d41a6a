import t from 'tap';
import { afterSignIn, signInError } from '../../src/web/login/redirect';

const ORIGIN = 'http://chat.example.com';

t.test('after signing in the page goes to a same-origin `next` path, else to /', async (t) => {
  t.equal(afterSignIn('', ORIGIN), '/');
  t.equal(afterSignIn('?next=%2F%23narrow%2Fstream%2F1', ORIGIN), '/#narrow/stream/1');
  t.equal(afterSignIn('?next=/settings?tab=2', ORIGIN), '/settings?tab=2');
  for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'relative', '/login']) {
    t.equal(afterSignIn(`?next=${encodeURIComponent(next)}`, ORIGIN), '/', next);
  }
});

t.test('a refused sign-in shows the server message, with the wait when rate limited', async (t) => {
  t.equal(
    signInError(401, { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' }),
    'Your username or password is incorrect',
  );
  t.equal(
    signInError(429, { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 125.5 }),
    'API usage exceeded rate limit. Too many failed attempts: try again in 3 minutes.',
  );
  t.equal(signInError(502, null), 'Sign-in failed (HTTP 502)');
});
