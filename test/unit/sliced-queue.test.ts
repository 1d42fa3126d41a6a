import t from 'tap';
import { SlicedQueue } from '../../src/wire/sliced-queue';

// A clock the test moves: each item "takes" 1 ms, so a 3 ms slice holds three of them.
function setUp() {
  let clock = 0;
  const ran: string[] = [];
  const later: (() => void)[] = [];
  const queue = new SlicedQueue<string>(
    (item) => {
      ran.push(item);
      clock += 1;
    },
    3,
    () => clock,
    (continueWith) => void later.push(continueWith),
  );
  /** One turn of the loop: what was scheduled for later runs, in order. */
  const turn = (): void => {
    for (const continueWith of later.splice(0)) continueWith();
  };
  return { queue, ran, later, turn, note: (what: string) => ran.push(what) };
}

t.test('a burst runs in slices, in order, and what waits for the next turn runs between them', async (t) => {
  const { queue, ran, turn, later, note } = setUp();
  for (const item of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) queue.push(item);
  t.strictSame(ran, ['a', 'b', 'c'], 'the first slice runs at once');
  t.equal(queue.queued, 4);
  // What the handled requests scheduled (a commit, their answers) is behind the slice's end.
  later.push(() => note('commit'));
  turn();
  t.strictSame(ran, ['a', 'b', 'c', 'd', 'e', 'f', 'commit'], 'the next slice, then the commit; the continuation was scheduled first');
  turn();
  t.strictSame(ran, ['a', 'b', 'c', 'd', 'e', 'f', 'commit', 'g']);
  t.equal(queue.queued, 0);
  turn();
  t.equal(later.length, 0, 'nothing left scheduled once the queue is empty');
});

t.test('an item that arrives while others wait runs after them, never ahead', async (t) => {
  const { queue, ran, turn } = setUp();
  for (const item of ['a', 'b', 'c', 'd']) queue.push(item);
  turn();
  t.strictSame(ran, ['a', 'b', 'c', 'd']);
  for (const item of ['e', 'f', 'g', 'h', 'i', 'j', 'k']) queue.push(item);
  t.strictSame(ran, ['a', 'b', 'c', 'd', 'e', 'f', 'g'], 'a new turn opens a new slice');
  queue.push('l');
  turn();
  t.strictSame(ran, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
  queue.push('m');
  t.strictSame(ran, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'], 'k and l still wait, so m waits behind them');
  turn();
  turn();
  t.strictSame(ran, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm']);
});

t.test('a quiet stream of single items runs each at once', async (t) => {
  const { queue, ran, turn } = setUp();
  for (const item of ['a', 'b', 'c', 'd']) {
    queue.push(item);
    t.strictSame(ran.at(-1), item);
    turn();
  }
  t.equal(queue.queued, 0);
});
