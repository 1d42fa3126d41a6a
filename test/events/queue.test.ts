import http from 'node:http';
import t from 'tap';
import { createMember } from '../helpers/fixtures';
import { ApiClient, basicAuth } from '../helpers/http';
import { startServer, type Credentials } from '../helpers/server';

type Event = Record<string, unknown> & { id: number; type: string };

async function register(client: ApiClient, params: Record<string, string | number | boolean | object> = {}): Promise<string> {
  const res = await client.post('/register', params);
  if (res.status !== 200) throw new Error(`register failed: ${res.text}`);
  return String(res.body['queue_id']);
}

function events(body: Record<string, unknown>): Event[] {
  return body['events'] as Event[];
}

/** A GET /events that the test can abandon, as a client that goes away does. */
function abandonablePoll(baseUrl: string, auth: Credentials, queueId: string): { abort: () => void; settled: Promise<string> } {
  const url = new URL(baseUrl);
  const query = new URLSearchParams({ queue_id: queueId, last_event_id: '-1' }).toString();
  let abort = (): void => undefined;
  const settled = new Promise<string>((resolve) => {
    const req = http.request(
      {
        hostname: url.hostname,
        port: url.port,
        path: `/api/v1/events?${query}`,
        headers: { Authorization: basicAuth(auth) },
        agent: false,
      },
      (res) => res.resume().on('end', () => resolve('answered')),
    );
    req.on('error', () => resolve('aborted'));
    req.end();
    abort = () => req.destroy();
  });
  return { abort, settled };
}

t.test('the event queue', async (t) => {
  // A short heartbeat, and a shard timeout shorter still: a parked poll must outlive it. The
  // timeout leaves room for a request on a machine busy with other test files (2 s, expired by a
  // sweep each second), and the heartbeat comes after the latest such expiry (3 s).
  const server = await startServer({ env: { HEARTBEAT_INTERVAL_MS: '4000', SHARD_REQUEST_TIMEOUT_MS: '2000' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');

  t.test('a fetch without queue_id is refused unless it may make a queue', async (t) => {
    const res = await api.get('/events', { last_event_id: -1 });
    t.equal(res.status, 400);
    t.strictSame(res.body, { result: 'error', msg: "Missing 'queue_id' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'queue_id' });
  });

  t.test('a fetch without last_event_id is refused', async (t) => {
    const queueId = await register(api);
    const res = await api.get('/events', { queue_id: queueId });
    t.equal(res.status, 400);
    t.strictSame(res.body, {
      result: 'error',
      msg: "Missing 'last_event_id' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'last_event_id',
    });
  });

  t.test('an unknown queue is BAD_EVENT_QUEUE_ID with the queue_id', async (t) => {
    const res = await api.get('/events', { queue_id: 'no-such-queue', last_event_id: -1 });
    t.equal(res.status, 400);
    t.strictSame(res.body, {
      result: 'error',
      msg: 'Bad event queue ID: no-such-queue',
      code: 'BAD_EVENT_QUEUE_ID',
      queue_id: 'no-such-queue',
    });
  });

  t.test("another user's queue is as unknown as a missing one, to read and to delete", async (t) => {
    const queueId = await register(api);
    const read = await api.as(alice).get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    t.equal(read.status, 400);
    t.strictSame(read.body, { result: 'error', msg: `Bad event queue ID: ${queueId}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
    const deleted = await api.as(alice).call('DELETE', '/events', { queue_id: queueId }, 'query');
    t.equal(deleted.status, 400);
    t.equal(deleted.body['code'], 'BAD_EVENT_QUEUE_ID');
    const stillThere = await api.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    t.strictSame(stillThere.body, { result: 'success', msg: '', events: [] }, 'the owner still has it');
  });

  t.test('a register narrow the queue cannot apply is BAD_NARROW', async (t) => {
    const unknown = await api.post('/register', { narrow: [['search', 'deploy']] });
    t.equal(unknown.status, 400);
    t.strictSame(unknown.body, {
      result: 'error',
      msg: 'Invalid narrow operator: unknown operator search',
      code: 'BAD_NARROW',
      desc: 'unknown operator search',
    });
    const badIs = await api.post('/register', { narrow: [['is', 'sparkly']] });
    t.strictSame(badIs.body, {
      result: 'error',
      msg: "Invalid narrow operator: unknown 'is' operand sparkly",
      code: 'BAD_NARROW',
      desc: "unknown 'is' operand sparkly",
    });
  });

  t.test('register answers a queue with no events yet', async (t) => {
    const res = await api.post('/register', { event_types: ['message'] });
    t.equal(res.status, 200);
    t.match(res.body['queue_id'], /^\d+:[0-9a-f]+$/);
    t.equal(res.body['last_event_id'], -1);
    t.equal(res.body['service_feature_level'], 185);
  });

  t.test('dont_block answers at once, with nothing when nothing happened', async (t) => {
    const queueId = await register(api);
    const res = await api.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    t.strictSame(res.body, { result: 'success', msg: '', events: [] });
  });

  t.test('dont_block without queue_id makes a queue on the spot', async (t) => {
    const res = await api.get('/events', { dont_block: true, event_types: ['message'] });
    t.equal(res.status, 200);
    t.strictSame(res.body['events'], []);
    const queueId = String(res.body['queue_id']);
    await api.post('/messages', { type: 'stream', to: 'general', topic: 'on the spot', content: 'hello' });
    const next = await api.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    t.strictSame(
      events(next.body).map((e) => [e.id, e.type]),
      [[0, 'message']],
    );
  });

  t.test('a parked poll is answered as soon as an event arrives', async (t) => {
    const queueId = await register(api.as(alice), { event_types: ['message'] });
    const poll = api.as(alice).get('/events', { queue_id: queueId, last_event_id: -1 });
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'wake', content: 'wake up' });
    const res = await poll;
    t.equal(res.status, 200);
    const [event] = events(res.body);
    t.equal(event?.id, 0);
    t.equal(event?.type, 'message');
    t.equal((event?.['message'] as Record<string, unknown>)['id'], sent.body['id']);
  });

  t.test('more parked polls than the shard answers in one message are all answered', async (t) => {
    // The shard sends a large batch of answers in chunks (workers/main.ts); 250 spans three. A
    // user holds at most 100 queues (workers/events/clients.ts), so five users hold them.
    const users = [alice];
    // One at a time: the key fetch hashes a password, and this server's shard timeout is short.
    for (let i = 0; i < 4; i++) users.push(await createMember(api, 'Poller'));
    const clients = users.flatMap((user) => Array.from({ length: 50 }, () => api.as(user)));
    const queueIds = await Promise.all(clients.map((client) => register(client, { event_types: ['message'] })));
    const polls = queueIds.map((queueId, i) => (clients[i] as ApiClient).get('/events', { queue_id: queueId, last_event_id: -1 }));
    // A round trip through the same shard, so the polls above have most likely parked.
    await api.get('/events', { queue_id: await register(api), last_event_id: -1, dont_block: true });
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'many', content: 'everyone wake up' });
    const answers = await Promise.all(polls);
    t.strictSame(
      answers.map((res) => res.status),
      queueIds.map(() => 200),
    );
    const messageIds = answers.map((res) => (events(res.body)[0]?.['message'] as Record<string, unknown> | undefined)?.['id']);
    t.strictSame(
      messageIds,
      queueIds.map(() => sent.body['id']),
      'every poll got the message',
    );
    await Promise.all(queueIds.map((queueId, i) => (clients[i] as ApiClient).call('DELETE', '/events', { queue_id: queueId }, 'query')));
  });

  t.test('last_event_id acknowledges and drops the events up to it', async (t) => {
    const queueId = await register(api, { event_types: ['message'] });
    for (const content of ['one', 'two', 'three']) {
      await api.post('/messages', { type: 'stream', to: 'general', topic: 'ack', content });
    }
    const all = await api.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    t.strictSame(
      events(all.body).map((e) => e.id),
      [0, 1, 2],
    );
    const rest = await api.get('/events', { queue_id: queueId, last_event_id: 1, dont_block: true });
    t.strictSame(
      events(rest.body).map((e) => [e.id, (e['message'] as Record<string, unknown>)['content']]),
      [[2, 'three']],
      'event 2 is still there; 0 and 1 are gone',
    );
    const pruned = await api.get('/events', { queue_id: queueId, last_event_id: 0, dont_block: true });
    t.equal(pruned.status, 400);
    t.strictSame(pruned.body, { result: 'error', msg: 'An event newer than 0 has already been pruned!', code: 'BAD_REQUEST' });
    const future = await api.get('/events', { queue_id: queueId, last_event_id: 7, dont_block: true });
    t.strictSame(future.body, { result: 'error', msg: 'Event 7 was not in this queue', code: 'BAD_REQUEST' });
    const empty = await api.get('/events', { queue_id: queueId, last_event_id: 2, dont_block: true });
    t.strictSame(empty.body['events'], []);
  });

  t.test('event_types keeps other types out of the queue', async (t) => {
    const queueId = await register(api, { event_types: ['alert_words'] });
    await api.post('/messages', { type: 'stream', to: 'general', topic: 'filtered', content: 'not for this queue' });
    await api.post('/users/me/alert_words', { alert_words: ['filtered'] });
    const res = await api.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    t.strictSame(
      events(res.body).map((e) => e.type),
      ['alert_words'],
    );
  });

  t.test('a second poll on a queue answers the first one, then waits itself', async (t) => {
    const queueId = await register(api.as(alice), { event_types: ['message'] });
    const first = api.as(alice).get('/events', { queue_id: queueId, last_event_id: -1 });
    // The second poll can only answer after the message; the first answers when it parks.
    const second = api.as(alice).get('/events', { queue_id: queueId, last_event_id: -1 });
    const firstAnswer = await first;
    t.strictSame(firstAnswer.body, { result: 'success', msg: '', events: [] });
    await api.post('/messages', { type: 'stream', to: 'general', topic: 'second', content: 'for the second poll' });
    const secondAnswer = await second;
    t.strictSame(
      events(secondAnswer.body).map((e) => e.type),
      ['message'],
    );
  });

  t.test('a parked poll outlives the shard request timeout and gets a heartbeat', async (t) => {
    const queueId = await register(api, { event_types: ['message'] });
    // SHARD_REQUEST_TIMEOUT_MS is 2 s and the heartbeat 4 s: a 503 would come first.
    const res = await api.get('/events', { queue_id: queueId, last_event_id: -1 });
    t.equal(res.status, 200, res.text);
    t.strictSame(res.body, { result: 'success', msg: '', events: [{ type: 'heartbeat', id: 0 }] }, 'heartbeats pass any event_types');
  });

  t.test('DELETE /events removes the queue and answers its parked poll', async (t) => {
    const queueId = await register(api);
    const poll = api.get('/events', { queue_id: queueId, last_event_id: -1 });
    const deleted = await api.call('DELETE', '/events', { queue_id: queueId }, 'query');
    t.strictSame(deleted.body, { result: 'success', msg: '' });
    const answered = await poll;
    t.equal(answered.status, 200, 'the parked poll is answered, not dropped');
    const after = await api.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    t.equal(after.body['code'], 'BAD_EVENT_QUEUE_ID');
    const again = await api.call('DELETE', '/events', { queue_id: queueId }, 'query');
    t.strictSame(again.body, { result: 'error', msg: `Bad event queue ID: ${queueId}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
  });
});

t.test('idle queues are collected, never one with a parked poll', async (t) => {
  // The heartbeat comes after twice the idle timeout, so a heartbeat on one queue proves
  // the other queues have been idle long enough, without the test sleeping.
  const server = await startServer({ env: { EVENT_QUEUE_TIMEOUT_MS: '400', HEARTBEAT_INTERVAL_MS: '1200' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const idle = await register(api);
  const abandoned = await register(api);
  const watcher = await register(api);

  // A client that went away: its poll no longer holds the queue alive.
  const gone = abandonablePoll(server.baseUrl, server.owner, abandoned);
  // The poll is parked once a second poll on the same queue answers it; here, wait for the
  // shard to have it by making a round trip on the same shard first.
  await api.get('/events', { queue_id: idle, last_event_id: -1, dont_block: true });
  gone.abort();
  t.equal(await gone.settled, 'aborted');

  const heartbeat = await api.get('/events', { queue_id: watcher, last_event_id: -1 });
  t.strictSame(heartbeat.body['events'], [{ type: 'heartbeat', id: 0 }]);

  for (const queueId of [idle, abandoned]) {
    const res = await api.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    t.strictSame(res.body, { result: 'error', msg: `Bad event queue ID: ${queueId}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
  }
  const kept = await api.get('/events', { queue_id: watcher, last_event_id: 0, dont_block: true });
  t.strictSame(kept.body, { result: 'success', msg: '', events: [] }, 'the queue whose poll was parked lives on');
});
