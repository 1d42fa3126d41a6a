import t from 'tap';
import { IDLE_AFTER_MS, PRESENCE_PING_MS, PresenceReporter } from '../../src/web/state/presence-reporter';

function harness(visible = true) {
  let now = 1_000_000;
  const posts: Record<string, string | boolean>[] = [];
  const intervals: { run: () => void; ms: number; cleared: boolean }[] = [];
  const reporter = new PresenceReporter({
    post: async (path, params) => {
      if (path !== '/users/me/presence') throw new Error(`unexpected ${path}`);
      posts.push(params);
    },
    setInterval: (run, ms) => {
      const entry = { run, ms, cleared: false };
      intervals.push(entry);
      return entry;
    },
    clearInterval: (handle) => ((handle as { cleared: boolean }).cleared = true),
    now: () => now,
    visible: () => visible,
  });
  return { reporter, posts, intervals, advance: (ms: number) => (now += ms) };
}

t.test('the page reports active at once, then every minute', async (t) => {
  const h = harness();
  h.reporter.start();
  t.strictSame(h.posts, [{ status: 'active', new_user_input: true, ping_only: true }]);
  t.equal(h.intervals.length, 1);
  t.equal(h.intervals[0]?.ms, PRESENCE_PING_MS);
  h.advance(PRESENCE_PING_MS);
  h.intervals[0]?.run();
  t.strictSame(h.posts[1], { status: 'active', new_user_input: false, ping_only: true }, 'no input since the last report');
  h.reporter.start();
  t.equal(h.intervals.length, 1, 'starting twice keeps one timer');
  h.reporter.stop();
  t.ok(h.intervals[0]?.cleared);
});

t.test('five minutes without input, or a hidden page, is idle', async (t) => {
  const h = harness();
  h.advance(IDLE_AFTER_MS - 1);
  t.equal(h.reporter.status(), 'active');
  h.advance(1);
  t.equal(h.reporter.status(), 'idle');
  h.reporter.noteInput();
  t.equal(h.reporter.status(), 'active', 'a key press makes the person active again');
  h.reporter.report();
  t.strictSame(h.posts.at(-1), { status: 'active', new_user_input: true, ping_only: true });
  t.equal(harness(false).reporter.status(), 'idle');
});
