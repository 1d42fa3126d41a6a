import type { Worker } from 'node:worker_threads';
import t from 'tap';
import { Shard } from '../../src/realm/shard-thread';

// The front end holds a shard's answers until the commit they follow is on disk
// (src/wire/protocol.ts DurableAfter): Shard.whenDurable and durableUpTo.

t.test('answers wait for their commit, in the order they came', (t) => {
  const shard = new Shard(0);
  const delivered: string[] = [];
  const answer = (name: string) => () => delivered.push(name);
  shard.whenDurable(undefined, answer('read before any commit'));
  shard.whenDurable(2, answer('after commit 2'));
  shard.whenDurable(2, answer('also after 2'));
  shard.whenDurable(3, answer('after commit 3'));
  t.strictSame(delivered, ['read before any commit'], 'an answer without a commit behind it leaves at once, the others wait');
  shard.durableUpTo(1);
  t.strictSame(delivered, ['read before any commit'], 'commit 1 on disk releases nothing that follows commit 2');
  shard.durableUpTo(2);
  t.strictSame(delivered, ['read before any commit', 'after commit 2', 'also after 2'], "commit 2's answers, in order");
  shard.whenDurable(3, answer('after commit 3, once more'));
  shard.durableUpTo(3);
  t.strictSame(delivered.slice(3), ['after commit 3', 'after commit 3, once more'], 'then commit 3');
  shard.whenDurable(3, answer('after commit 3, nothing held'));
  t.strictSame(delivered.at(-1), 'after commit 3, nothing held', 'an answer whose commit is on disk leaves at once');
  shard.durableUpTo(2);
  shard.whenDurable(3, answer('after a late, lower report'));
  t.strictSame(delivered.at(-1), 'after a late, lower report', 'a late, lower report does not move the mark back');
  t.end();
});

t.test('an answer that follows a held one waits behind it', (t) => {
  const shard = new Shard(0);
  const delivered: string[] = [];
  shard.whenDurable(5, () => delivered.push('after 5'));
  shard.durableUpTo(4);
  // Answers carry the latest commit, so a later one never carries less than a held one; were
  // it to, it still must not overtake it.
  shard.whenDurable(4, () => delivered.push('after 4, sent later'));
  t.strictSame(delivered, [], 'nothing overtakes a held answer');
  shard.durableUpTo(5);
  t.strictSame(delivered, ['after 5', 'after 4, sent later'], 'both, in the order they came');
  t.end();
});

t.test("a closed shard releases everything; a new thread forgets the old one's answers", (t) => {
  const shard = new Shard(0);
  const delivered: string[] = [];
  shard.whenDurable(9, () => delivered.push('held at close'));
  shard.durableUpTo(Infinity);
  t.strictSame(delivered, ['held at close'], 'a shard that closed its files fsynced them: all leave');
  const crashed = new Shard(1);
  crashed.whenDurable(3, () => delivered.push('held at a crash'));
  crashed.attach(null);
  crashed.durableUpTo(10);
  t.strictSame(delivered, ['held at close'], "a dead thread's held answers are dropped (their requests fail with 503)");
  crashed.attach({} as Worker);
  crashed.whenDurable(1, () => delivered.push('new thread, commit 1'));
  t.strictSame(delivered, ['held at close'], "the new thread's commit 1 is not taken for the old thread's");
  crashed.durableUpTo(1);
  t.strictSame(delivered, ['held at close', 'new thread, commit 1'], 'its own report releases it');
  t.end();
});
