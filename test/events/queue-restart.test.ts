import t from 'tap';
import { ApiClient } from '../helpers/http';
import { startServer, tempDataDir, freePort, type TestServer } from '../helpers/server';

async function register(client: ApiClient): Promise<string> {
  const res = await client.post('/register', { event_types: ['message'] });
  return String(res.body['queue_id']);
}

async function sameServerAgain(dataDir: string, port: number): Promise<TestServer> {
  return startServer({ dataDir, port });
}

t.test('queues survive a graceful restart with their unacknowledged events', async (t) => {
  const dataDir = tempDataDir();
  const port = await freePort();
  let server = await sameServerAgain(dataDir, port);
  t.teardown(() => server.stop());
  let api = new ApiClient(server.baseUrl, server.owner);
  const queueId = await register(api);
  await api.post('/messages', { type: 'stream', to: 'general', topic: 'upgrade', content: 'before the restart' });
  const first = await api.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
  t.equal((first.body['events'] as unknown[]).length, 1);

  // A poll parked when the server stops is answered, so the stop need not wait for it.
  const parkedQueue = await register(api);
  const parked = api.get('/events', { queue_id: parkedQueue, last_event_id: -1 });
  await api.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
  t.equal(await server.stop(), 0, 'the server stops cleanly');
  const answered = await parked;
  t.strictSame(answered.body, { result: 'success', msg: '', events: [] });

  server = await sameServerAgain(dataDir, port);
  api = new ApiClient(server.baseUrl, server.owner);
  const again = await api.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
  t.equal(again.status, 200, again.text);
  const [kept] = again.body['events'] as Record<string, unknown>[];
  t.equal(kept?.['id'], 0, 'the unacknowledged event kept its id');
  t.equal((kept?.['message'] as Record<string, unknown>)['content'], 'before the restart');

  const poll = api.get('/events', { queue_id: queueId, last_event_id: 0 });
  await api.post('/messages', { type: 'stream', to: 'general', topic: 'upgrade', content: 'after the restart' });
  const next = await poll;
  const [fresh] = next.body['events'] as Record<string, unknown>[];
  t.equal(fresh?.['id'], 1, 'ids continue where they were');
  t.equal((fresh?.['message'] as Record<string, unknown>)['content'], 'after the restart');
});

t.test('after a crash the queues are gone and clients must register again', async (t) => {
  const dataDir = tempDataDir();
  const port = await freePort();
  let server = await sameServerAgain(dataDir, port);
  t.teardown(() => server.stop());
  let api = new ApiClient(server.baseUrl, server.owner);
  const savedThenCrashed = await register(api);
  // A graceful stop saves it; the next start takes it back; then a crash loses it.
  await server.stop();
  server = await sameServerAgain(dataDir, port);
  api = new ApiClient(server.baseUrl, server.owner);
  const neverSaved = await register(api);
  await server.kill();
  server = await sameServerAgain(dataDir, port);
  api = new ApiClient(server.baseUrl, server.owner);
  for (const queueId of [savedThenCrashed, neverSaved]) {
    const res = await api.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    t.equal(res.status, 400);
    t.strictSame(res.body, { result: 'error', msg: `Bad event queue ID: ${queueId}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
  }
});
