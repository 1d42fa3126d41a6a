import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember } from '../helpers/fixtures';
import { RealmFile, sendToStream } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { createStream } from '../helpers/stream-notices';

// The rows of a message to many people live in user_messages_recent until the mover puts them
// in user_messages (migration 21): every read must see both tables, every write reach both.
// Here every message counts as one to many people.

const SUCCESS = { result: 'success', msg: '' };

/** A server with `env`, its owner's client, two members and the realm file, all closed at the test's end. */
async function startWithPeople(t: { teardown: (fn: () => unknown) => void }, env: Record<string, string>) {
  const server = await startServer({ env });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');
  const realmFile = new RealmFile(server);
  t.teardown(() => realmFile.close());
  return { api, alice, bob, realmFile };
}

t.test('rows read and written in both tables', async (t) => {
  // The periodic mover out of the way: the test hook moves rows when the test says.
  const { api, alice, bob, realmFile } = await startWithPeople(t, {
    RECENT_ROWS_INTERVAL_MS: String(60 * 60_000),
    RECENT_ROWS_MIN_RECIPIENTS: '1',
  });
  const asBob = api.as(bob);
  const moveAll = async (): Promise<void> => {
    const res = await api.post('/__test__/move_recent_rows', {});
    t.strictSame(res.body, SUCCESS, 'rows moved');
  };
  const rowsIn = (table: string, ids: number[]): number =>
    Number(realmFile.value(`SELECT count(*) FROM ${table} WHERE user_id = ? AND message_id IN (${ids.join(', ')})`, bob.id));

  const { streamId } = await createStream(api.as(alice), 'two tables', { principals: [alice.id, bob.id] });
  const older = [
    await sendToStream(api.as(alice), 'two tables', 'rows', 'one'),
    await sendToStream(api.as(alice), 'two tables', 'rows', 'two'),
    await sendToStream(api.as(alice), 'two tables', 'rows', 'three'),
  ];
  t.equal(rowsIn('user_messages_recent', older), 3, 'new rows land in the small table');
  t.equal(rowsIn('user_messages', older), 0);
  await moveAll();
  t.equal(rowsIn('user_messages', older), 3, 'and move to the large one');
  t.equal(rowsIn('user_messages_recent', older), 0, 'leaving none behind');
  const newer = [
    await sendToStream(api.as(alice), 'two tables', 'rows', 'four'),
    await sendToStream(api.as(alice), 'two tables', 'rows', 'five'),
  ];
  t.equal(rowsIn('user_messages_recent', newer), 2);
  const all = [...older, ...newer];
  const topic = [
    { operator: 'stream', operand: streamId },
    { operator: 'topic', operand: 'rows' },
  ];
  const page = async (narrow: object[]): Promise<[number, string[]][]> => {
    const res = await asBob.get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, narrow: JSON.stringify(narrow) });
    t.equal(res.status, 200, 'GET /messages');
    return (res.body['messages'] as { id: number; flags: string[] }[]).map((m) => [m.id, m.flags]);
  };

  t.test('a page merges both tables in order, with each row flags', async (t) => {
    t.strictSame(
      await page(topic),
      all.map((id) => [id, []]),
    );
    t.strictSame(
      await page([...topic, { operator: 'is', operand: 'unread' }]),
      all.map((id) => [id, []]),
    );
    const received = await asBob.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0 });
    t.strictSame(
      (received.body['messages'] as { id: number }[]).map((m) => m.id),
      all,
      'the newest five received, across the tables',
    );
    const firstUnread = await asBob.get('/messages', {
      anchor: 'first_unread',
      num_before: 0,
      num_after: 0,
      narrow: JSON.stringify(topic),
    });
    t.equal(firstUnread.body['anchor'], older[0], 'first_unread is in the large table');
  });

  t.test('register counts unread rows of both tables', async (t) => {
    const res = await asBob.post('/register', { event_types: JSON.stringify(['message', 'update_message_flags']) });
    t.equal(res.status, 200, 'POST /register');
    const unread = res.body['unread_msgs'] as { streams: { stream_id: number; topic: string; unread_message_ids: number[] }[] };
    t.strictSame(unread.streams.find((entry) => entry.stream_id === streamId && entry.topic === 'rows')?.unread_message_ids, all);
    t.equal(res.body['max_message_id'], newer[1]);
  });

  t.test('flags change in whichever table holds the row', async (t) => {
    const starred = [older[0] as number, newer[0] as number];
    const res = await asBob.post('/messages/flags', { messages: JSON.stringify(starred), op: 'add', flag: 'starred' });
    t.strictSame(res.body, { ...SUCCESS, messages: starred });
    t.strictSame(
      await page([{ operator: 'is', operand: 'starred' }]),
      starred.map((id) => [id, ['starred']]),
    );
    const registered = await asBob.post('/register', { event_types: JSON.stringify(['starred_messages']) });
    t.strictSame(registered.body['starred_messages'], starred);

    const read = await asBob.post('/mark_topic_as_read', { stream_id: streamId, topic_name: 'rows' });
    t.strictSame(read.body, SUCCESS);
    t.strictSame(
      await page(topic),
      all.map((id) => [id, starred.includes(id) ? ['read', 'starred'] : ['read']]),
    );
    t.strictSame(await page([...topic, { operator: 'is', operand: 'unread' }]), []);
  });

  t.test('deleting a message removes its rows from both tables', async (t) => {
    for (const id of [older[1] as number, newer[1] as number]) {
      const res = await api.call('DELETE', `/messages/${id}`);
      t.strictSame(res.body, SUCCESS);
    }
    t.equal(rowsIn('user_messages', [older[1] as number]), 0);
    t.equal(rowsIn('user_messages_recent', [newer[1] as number]), 0);
    t.strictSame(
      (await page(topic)).map(([id]) => id),
      [older[0], older[2], newer[0]],
    );
  });

  t.test('a row is in one table only after moving again', async (t) => {
    await moveAll();
    t.equal(rowsIn('user_messages_recent', all), 0);
    t.equal(rowsIn('user_messages', all), 3);
    t.strictSame(
      await page(topic),
      [older[0], older[2], newer[0]].map((id) => [id, id === older[2] ? ['read'] : ['read', 'starred']]),
    );
  });
});

t.test('the periodic mover moves rows of messages older than its last run', async (t) => {
  const { api, bob, realmFile } = await startWithPeople(t, { RECENT_ROWS_INTERVAL_MS: '50', RECENT_ROWS_MIN_RECIPIENTS: '1' });
  const id = await sendToStream(api, 'general', 'moved later', 'soon in the large table');
  const inLarge = (): boolean =>
    realmFile.value('SELECT count(*) FROM user_messages WHERE user_id = ? AND message_id = ?', bob.id, id) === 1;
  // Waits for the mover's runs, however long the machine takes (no time is asserted).
  for (let tries = 0; tries < 400 && !inLarge(); tries++) await new Promise((resolve) => setTimeout(resolve, 25));
  t.ok(inLarge(), "bob's row moved");
  t.equal(realmFile.value('SELECT count(*) FROM user_messages_recent WHERE message_id = ?', id), 0, 'no row left behind');
  const res = await api.as(bob).get('/messages', { anchor: id, num_before: 0, num_after: 0 });
  t.strictSame(
    (res.body['messages'] as { id: number; flags: string[] }[]).map((m) => [m.id, m.flags]),
    [[id, []]],
  );
});

t.test('only a message to RECENT_ROWS_MIN_RECIPIENTS people or more writes to the small table', async (t) => {
  const { api, alice, bob, realmFile } = await startWithPeople(t, {
    RECENT_ROWS_INTERVAL_MS: String(60 * 60_000),
    RECENT_ROWS_MIN_RECIPIENTS: '3',
  });
  await createStream(api.as(alice), 'two people', { principals: [alice.id, bob.id] });
  await createStream(api.as(alice), 'three people', { principals: [alice.id, bob.id, 1] });
  const rows = (table: string, id: number): number => Number(realmFile.value(`SELECT count(*) FROM ${table} WHERE message_id = ?`, id));
  const small = await sendToStream(api.as(alice), 'two people', 'size', 'to two');
  t.strictSame([rows('user_messages', small), rows('user_messages_recent', small)], [2, 0], 'two recipients: the large table');
  const large = await sendToStream(api.as(alice), 'three people', 'size', 'to three');
  t.strictSame([rows('user_messages', large), rows('user_messages_recent', large)], [0, 3], 'three: the small table');
});
