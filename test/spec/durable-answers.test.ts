import t from 'tap';
import { ApiClient, type ApiResponse } from '../helpers/http';
import { RealmFile } from '../helpers/realm-file';
import { startServer } from '../helpers/server';

// No answer leaves before the write it follows is on disk: a shard commits and answers at once,
// its sync thread fsyncs the WAL, and the front end holds the shard's answers until that thread
// reports the commit durable (src/wire/protocol.ts DurableAfter). A test hook (TEST_HOOKS=1)
// holds the sync thread's fsyncs, as a slow disk would.

const SUCCESS = { result: 'success', msg: '' };
const SERVICE_RESTARTED = { result: 'error', msg: 'The server restarted part of itself; try again' };

t.test('answers held until their commit is durable', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const file = new RealmFile(server);
  t.teardown(() => file.close());
  const syncHold = async (op: 'hold' | 'release'): Promise<unknown> => (await api.post('/__test__/sync_hold', { op })).body;

  /** A request whose answer is noted when it comes. */
  const watch = (request: Promise<ApiResponse>) => {
    const watched = { answered: false, answer: request };
    void request.finally(() => (watched.answered = true));
    return watched;
  };

  /** Waits until the send is committed: a reader of the realm's file sees its row. */
  const committed = async (topic: string): Promise<number> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const rows = file.value('SELECT count(*) FROM messages WHERE topic = ?', topic) as number;
      if (rows > 0 || Date.now() > deadline) return rows;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  t.test('a send, a read after it and an event poll wait for the fsync', async (t) => {
    const registered = await api.post('/register', { event_types: ['message'] });
    const queueId = String(registered.body['queue_id']);
    t.strictSame(await syncHold('hold'), SUCCESS, 'fsyncs held');
    const send = watch(api.post('/messages', { type: 'stream', to: 'general', topic: 'held', content: 'committed, not on disk yet' }));
    t.equal(await committed('held'), 1, 'the message is committed');
    const read = watch(api.get('/users/me'));
    const poll = watch(api.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true }));
    // Answers written from shared bytes (a register's people list) leave the shard as binary.
    const register = watch(api.post('/register', {}));
    // Not a timing assertion: held answers cannot come however long this waits.
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.strictSame(
      [send.answered, read.answered, poll.answered, register.answered],
      [false, false, false, false],
      'none has its answer while the fsync is held',
    );
    t.strictSame(await syncHold('release'), SUCCESS, 'fsyncs let go');
    const sent = await send.answer;
    t.strictSame([sent.status, Object.keys(sent.body).sort()], [200, ['id', 'msg', 'result']], 'then the send is answered');
    const me = await read.answer;
    t.strictSame([me.status, me.body['email']], [200, server.owner.email], 'the read');
    const polled = await poll.answer;
    const events = polled.body['events'] as { type: string; message?: { id: number; subject: string } }[];
    t.strictSame(
      events.map((event) => [event.type, event.message?.id, event.message?.subject]),
      [['message', sent.body['id'], 'held']],
      'and the poll, with the message event',
    );
    const late = await register.answer;
    t.strictSame([late.status, late.body['max_message_id']], [200, sent.body['id']], 'and the register, which tells of the message');
  });

  t.test('a shard that ends while answers are held: they are answered 503, and it serves again', async (t) => {
    t.strictSame(await syncHold('hold'), SUCCESS, 'fsyncs held');
    const send = watch(api.post('/messages', { type: 'stream', to: 'general', topic: 'lost answer', content: 'committed, then a crash' }));
    t.equal(await committed('lost answer'), 1, 'the message is committed');
    const exit = await api.post('/__test__/exit', {});
    const sent = await send.answer;
    t.strictSame(
      [sent.status, sent.body, exit.status],
      [503, SERVICE_RESTARTED, 503],
      'the held answer fails with the others of the ended shard',
    );
    const deadline = Date.now() + 15_000;
    let again = await api.post('/messages', { type: 'stream', to: 'general', topic: 'after', content: 'the restarted shard' });
    while (again.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      again = await api.post('/messages', { type: 'stream', to: 'general', topic: 'after', content: 'the restarted shard' });
    }
    t.strictSame([again.status, Object.keys(again.body).sort()], [200, ['id', 'msg', 'result']], 'its new sync thread is not held');
  });
});
