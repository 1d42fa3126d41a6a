import t from 'tap';
import { AnswerWriter } from '../../src/realm/answer-writer';
import type { ResponseFrame } from '../../src/wire/protocol';

// A clock the test moves: each answer "takes" 1 ms to write, so a 3 ms slice holds three.
function setUp(polls: ReadonlySet<number>) {
  let clock = 0;
  const written: number[] = [];
  const later: (() => void)[] = [];
  const writer = new AnswerWriter(
    (response) => {
      written.push(response.id);
      clock += 1;
    },
    (id) => polls.has(id),
    3,
    () => clock,
    (continueWith) => void later.push(continueWith),
  );
  const answer = (id: number): ResponseFrame => ({ kind: 'response', id, status: 200, headers: {}, body: '{}' });
  const turn = (): void => {
    for (const continueWith of later.splice(0)) continueWith();
  };
  return { writer, written, answer, turn };
}

t.test("a burst of poll answers is written in slices, and a request's answer goes ahead of the rest", async (t) => {
  const polls = new Set([1, 2, 3, 4, 5, 6, 7, 8]);
  const { writer, written, answer, turn } = setUp(polls);
  for (const id of polls) writer.push(answer(id));
  t.strictSame(written, [1, 2, 3], 'the first slice at once');
  t.equal(writer.queued, 5);
  writer.push(answer(100));
  t.strictSame(written, [1, 2, 3, 100], 'not behind the five polls still waiting');
  turn();
  t.strictSame(written, [1, 2, 3, 100, 4, 5, 6]);
  writer.push(answer(101));
  writer.push(answer(9 /* not a poll either: its request is no longer pending */));
  t.strictSame(written, [1, 2, 3, 100, 4, 5, 6, 101, 9]);
  turn();
  t.strictSame(written, [1, 2, 3, 100, 4, 5, 6, 101, 9, 7, 8], 'the polls in the order they came');
  t.equal(writer.queued, 0);
});

t.test('poll answers keep their order among themselves', async (t) => {
  const polls = new Set([1, 2, 3, 4, 5]);
  const { writer, written, answer, turn } = setUp(polls);
  for (const id of [1, 2, 3, 4]) writer.push(answer(id));
  writer.push(answer(5));
  turn();
  t.strictSame(written, [1, 2, 3, 4, 5]);
});
