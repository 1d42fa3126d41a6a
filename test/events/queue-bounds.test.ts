import t from 'tap';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';

// workers/events/clients.ts MAX_QUEUES_PER_USER: one user's queues (and so their parked polls) are bounded.
const MAX_QUEUES_PER_USER = 100;

async function register(client: ApiClient): Promise<string> {
  const res = await client.post('/register', { event_types: ['message'] });
  if (res.status !== 200) throw new Error(`register failed: ${res.text}`);
  return res.body['queue_id'] as string;
}

async function poll(client: ApiClient, queueId: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await client.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
  return { status: res.status, body: res.body };
}

const empty = { status: 200, body: { result: 'success', msg: '', events: [] } };

t.test('a user holds at most 100 event queues; registering more collects the least recently used (here, the oldest)', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const alice = owner.as(await createMember(owner, 'Alice'));
  const aliceQueue = await register(alice);

  const queues: string[] = [];
  for (let i = 0; i < MAX_QUEUES_PER_USER + 1; i++) queues.push(await register(owner));
  const [first, second] = queues as [string, string];
  const last = queues[MAX_QUEUES_PER_USER] as string;

  t.strictSame(await poll(owner, first), {
    status: 400,
    body: { result: 'error', msg: `Bad event queue ID: ${first}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: first },
  });
  for (const queueId of [second, last]) t.strictSame(await poll(owner, queueId), empty);
  t.strictSame(await poll(alice, aliceQueue), empty, "another user's queue stays");

  // 300 registrations leave the user 100 queues: the newest.
  for (let i = 0; i < 199; i++) queues.push(await register(owner));
  const live: string[] = [];
  for (const queueId of queues) if ((await poll(owner, queueId)).status === 200) live.push(queueId);
  t.strictSame(live, queues.slice(-MAX_QUEUES_PER_USER));
});
