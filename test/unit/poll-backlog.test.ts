import t from 'tap';
import { PollBacklog } from '../../workers/lib/poll-backlog';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

t.test('new polls are handled in arrival order, a slice per turn, after the turn they came in', async (t) => {
  const handled: number[] = [];
  const backlog = new PollBacklog<number>(3, (item) => handled.push(item));
  for (let id = 1; id <= 7; id++) backlog.add(id, id * 10);
  t.strictSame(handled, [], 'nothing in the turn they arrived');
  await nextTurn();
  t.strictSame(handled, [10, 20, 30]);
  t.equal(backlog.size, 4);
  await nextTurn();
  t.strictSame(handled, [10, 20, 30, 40, 50, 60]);
  await nextTurn();
  t.strictSame(handled, [10, 20, 30, 40, 50, 60, 70]);
  t.equal(backlog.size, 0);
  await nextTurn();
  t.strictSame(handled, [10, 20, 30, 40, 50, 60, 70], 'no slice runs twice');
});

t.test('a poll whose client went away is dropped; a closing shard handles the rest at once', async (t) => {
  const handled: number[] = [];
  const backlog = new PollBacklog<number>(10, (item) => handled.push(item));
  backlog.add(1, 1);
  backlog.add(2, 2);
  backlog.add(3, 3);
  t.equal(backlog.drop(2), true);
  t.equal(backlog.drop(2), false, 'dropped once');
  backlog.flush();
  t.strictSame(handled, [1, 3]);
  await nextTurn();
  t.strictSame(handled, [1, 3], 'flushed polls are not handled again');
});
