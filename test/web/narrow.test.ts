import t from 'tap';
import { matchesNarrow, narrowTitle, parseHash, toApiNarrow, toHash, withoutMe, type Narrow } from '../../src/web/state/narrow';
import { buildSnapshot } from '../../src/web/state/snapshot';
import { ANN, BO, ME, directMessage, register, streamMessage } from './fixtures';

const narrows: Narrow[] = [
  { kind: 'all' },
  { kind: 'stream', streamId: 4 },
  { kind: 'topic', streamId: 4, topic: 'plans / 2027 & more' },
  { kind: 'dm', userIds: [ANN, BO] },
  { kind: 'search', words: 'lunch #today' },
  { kind: 'starred' },
  { kind: 'mentioned' },
];

t.test('every narrow survives the trip through the location hash', async (t) => {
  for (const narrow of narrows) t.strictSame(parseHash(toHash(narrow)), narrow, toHash(narrow));
});

t.test('hashes are written exactly as the panels contract documents them', async (t) => {
  t.equal(toHash({ kind: 'topic', streamId: 4, topic: 'a b/c' }), '#narrow/stream/4/topic/a.20b.2Fc');
  t.equal(toHash({ kind: 'topic', streamId: 4, topic: '✔ v1.2' }), '#narrow/stream/4/topic/.E2.9C.94.20v1.2E2');
  t.equal(toHash({ kind: 'dm', userIds: [3, 5] }), '#narrow/dm/3,5');
  t.equal(toHash({ kind: 'starred' }), '#narrow/is/starred');
});

t.test('direct conversation hashes are read in ascending order, and malformed hashes are not views', async (t) => {
  t.strictSame(parseHash('#narrow/dm/5,3'), { kind: 'dm', userIds: [3, 5] });
  t.strictSame(
    parseHash('#narrow/stream/10/topic/x/near/42'),
    { kind: 'topic', streamId: 10, topic: 'x' },
    'a message link opens its conversation',
  );
  t.equal(parseHash('#narrow/stream/10/near/x'), null);
  for (const bad of [
    '',
    '#narrow/',
    '#narrow/stream/x',
    '#narrow/stream/0',
    '#narrow/dm/1,a',
    '#narrow/is/unread',
    '#narrow/search/',
    '#narrow/stream/1/topic/%E0',
    '#other',
  ]) {
    t.equal(parseHash(bad), null, bad);
  }
});

t.test("the addresses the server renders in messages open their views (api-notes §g's encoding)", async (t) => {
  t.strictSame(parseHash('/#narrow/stream/12-first-day'), { kind: 'stream', streamId: 12 });
  t.strictSame(parseHash('/#narrow/stream/12-first-day/topic/some.20topic'), { kind: 'topic', streamId: 12, topic: 'some topic' });
  t.strictSame(parseHash('#narrow/channel/12-x/topic/.D0.BF.D1.80.2E'), { kind: 'topic', streamId: 12, topic: 'пр.' });
  t.strictSame(parseHash('#narrow/stream/12/topic/a%20b'), { kind: 'topic', streamId: 12, topic: 'a b' }, 'percent escapes too');
  t.strictSame(parseHash('/#narrow/dm/7-Ada'), { kind: 'dm', userIds: [7] });
  t.strictSame(parseHash('/#narrow/dm/9,7-group'), { kind: 'dm', userIds: [7, 9] });
  t.strictSame(parseHash('/#narrow/stream/12-x/topic/y/with/40'), { kind: 'topic', streamId: 12, topic: 'y' });
  t.equal(parseHash('/#narrow/stream/x-12'), null);
});

t.test('an address that lists me in a conversation with others is read without me', async (t) => {
  t.strictSame(withoutMe({ kind: 'dm', userIds: [ANN, ME] }, ME), { kind: 'dm', userIds: [ANN] });
  t.strictSame(withoutMe({ kind: 'dm', userIds: [ME] }, ME), { kind: 'dm', userIds: [ME] }, 'the conversation with myself stays');
});

t.test('each narrow becomes the API narrow parameter', async (t) => {
  t.strictSame(toApiNarrow({ kind: 'all' }), []);
  t.strictSame(toApiNarrow({ kind: 'topic', streamId: 4, topic: 'x' }), [
    { operator: 'stream', operand: 4 },
    { operator: 'topic', operand: 'x' },
  ]);
  t.strictSame(toApiNarrow({ kind: 'dm', userIds: [ANN] }), [{ operator: 'dm', operand: [ANN] }]);
  t.strictSame(toApiNarrow({ kind: 'search', words: 'hi' }), [{ operator: 'search', operand: 'hi' }]);
  t.strictSame(toApiNarrow({ kind: 'mentioned' }), [{ operator: 'is', operand: 'mentioned' }]);
});

t.test('a live message is placed only in the views it belongs to', async (t) => {
  const inTopic = streamMessage(1, 4, 'Plans');
  t.ok(matchesNarrow({ kind: 'all' }, inTopic, ME));
  t.ok(matchesNarrow({ kind: 'stream', streamId: 4 }, inTopic, ME));
  t.notOk(matchesNarrow({ kind: 'stream', streamId: 5 }, inTopic, ME));
  t.ok(matchesNarrow({ kind: 'topic', streamId: 4, topic: 'plans' }, inTopic, ME), 'topics compare without case');
  t.notOk(matchesNarrow({ kind: 'topic', streamId: 4, topic: 'other' }, inTopic, ME));
  t.notOk(matchesNarrow({ kind: 'search', words: 'message' }, inTopic, ME), 'a search is fetched, not guessed');
  const group = directMessage(2, [ME, BO, ANN]);
  t.ok(matchesNarrow({ kind: 'dm', userIds: [ANN, BO] }, group, ME));
  t.notOk(matchesNarrow({ kind: 'dm', userIds: [ANN] }, group, ME));
  t.ok(matchesNarrow({ kind: 'dm', userIds: [ME] }, directMessage(3, [ME]), ME), 'the conversation with myself');
  t.ok(matchesNarrow({ kind: 'mentioned' }, { ...inTopic, flags: ['wildcard_mentioned'] }, ME));
  t.notOk(matchesNarrow({ kind: 'starred' }, inTopic, ME));
});

t.test('each view has a title naming its stream or people', async (t) => {
  const snapshot = buildSnapshot(register(), 1000);
  t.equal(narrowTitle({ kind: 'topic', streamId: 1, topic: 'lunch' }, snapshot), '#general > lunch');
  t.equal(narrowTitle({ kind: 'dm', userIds: [ANN, BO] }, snapshot), 'Ann, Bo');
  t.equal(narrowTitle({ kind: 'all' }, snapshot), 'All messages');
});
