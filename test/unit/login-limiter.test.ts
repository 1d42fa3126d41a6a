import t from 'tap';
import { FailedLoginLimiter } from '../../workers/lib/login-limiter';
import { FakeClock } from '../helpers/fake-clock';

const WINDOW_MS = 30 * 60_000;

function limiter(clock: FakeClock): FailedLoginLimiter {
  return new FailedLoginLimiter(clock, { limit: 5, windowMs: WINDOW_MS });
}

t.test('five failures in the window refuse the username until the oldest leaves it', async (t) => {
  const clock = new FakeClock(1_000_000);
  const failures = limiter(clock);
  for (let i = 0; i < 5; i++) {
    t.equal(failures.retryAfterMs('ada@example.com'), 0, `attempt ${i + 1} may go ahead`);
    failures.recordFailure('ada@example.com');
    clock.advanceTo(clock.now() + 60_000);
  }
  // The first failure was at 1_000_000; five minutes have passed since.
  t.equal(failures.retryAfterMs('ada@example.com'), WINDOW_MS - 5 * 60_000);
  t.equal(failures.retryAfterMs('ADA@example.com '), WINDOW_MS - 5 * 60_000, 'the same username in another case');
  t.equal(failures.retryAfterMs('bob@example.com'), 0, 'other usernames are free');
  clock.advanceTo(1_000_000 + WINDOW_MS);
  t.equal(failures.retryAfterMs('ada@example.com'), 0, 'the oldest failure left the window: one more attempt');
  failures.recordFailure('ada@example.com');
  t.equal(failures.retryAfterMs('ada@example.com'), 60_000, 'refused again until the second-oldest leaves');
});

t.test('a success forgets the failures', async (t) => {
  const clock = new FakeClock(0);
  const failures = limiter(clock);
  for (let i = 0; i < 5; i++) failures.recordFailure('ada@example.com');
  t.ok(failures.retryAfterMs('ada@example.com') > 0);
  failures.recordSuccess('ada@example.com');
  t.equal(failures.retryAfterMs('ada@example.com'), 0);
});
