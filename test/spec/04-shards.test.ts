import http from 'node:http';
import t from 'tap';
import { ApiClient, request } from '../helpers/http';
import { startServer } from '../helpers/server';
import { realmOnAnotherShard } from '../helpers/shards';

async function healthy(baseUrl: string): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const res = await request({ baseUrl, method: 'GET', path: '/health' });
    if (res.status === 200) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** Resolves once `count` test sleeps are running on the shard of `api`'s realm. */
async function sleepersReach(api: ApiClient, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Number((await api.get('/__test__/sleepers')).body['sleeping']) < count) {
    if (Date.now() > deadline) throw new Error(`fewer than ${count} sleeps reached the shard`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// Crash isolation: a dead shard is restarted, its in-flight requests get 503, other
// shards are untouched, and nothing acknowledged is lost.
t.test('shards', async (t) => {
  const server = await startServer({ env: { SHARDS: '2' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const otherClient = realmOnAnotherShard(server, 2);

  t.test('GET /health answers 200 when every shard answers', async (t) => {
    const res = await request({ baseUrl: server.baseUrl, method: 'GET', path: '/health' });
    t.equal(res.status, 200);
    t.strictSame(res.body, { result: 'success', msg: '', shards: 2 });
  });

  t.test('a crashed shard answers its in-flight requests with 503 and comes back', async (t) => {
    const before = await api.post('/messages', { type: 'stream', to: 'general', topic: 'crash', content: 'before the crash' });
    t.equal(before.status, 200);
    const slow = api.post('/__test__/sleep', { ms: 3000 });
    await sleepersReach(api, 1);
    const crash = await api.post('/__test__/crash_shard');
    t.equal(crash.status, 503);
    t.equal(crash.body['result'], 'error');
    const inFlight = await slow;
    t.equal(inFlight.status, 503, 'the request parked on the dying shard got a 503');
    t.ok(await healthy(server.baseUrl), 'the shard was restarted');
    const fetched = await api.get(`/messages/${String(before.body['id'])}`, { apply_markdown: false });
    t.equal(fetched.status, 200);
    t.equal((fetched.body['message'] as Record<string, unknown>)['content'], 'before the crash', 'acknowledged data survived');
  });

  t.test('a crash in one shard leaves the others untouched', async (t) => {
    const slowOther = otherClient.post('/__test__/sleep', { ms: 500 });
    await sleepersReach(otherClient, 1);
    const crash = await api.post('/__test__/crash_shard');
    t.equal(crash.status, 503);
    const answer = await slowOther;
    t.equal(answer.status, 200, 'the other shard finished its request');
    t.strictSame(answer.body['slept'], 500);
    t.ok(await healthy(server.baseUrl));
  });
});

t.test('an unexpected exception is a 500 JSON error, logged with its route', async (t) => {
  const server = await startServer({ env: { LOG_LEVEL: 'error' } });
  t.teardown(() => server.stop());
  const res = await new ApiClient(server.baseUrl, server.owner).post('/__test__/throw');
  t.equal(res.status, 500);
  t.strictSame(res.body, { result: 'error', msg: 'Internal server error' });
  const logged = /"route":"POST \/__test__\/throw".*"msg":"unexpected error"/;
  // Waits for the line rather than a fixed 200 ms; the assertion below judges either way.
  await server.logLine((line) => logged.test(line)).catch(() => undefined);
  t.match(server.output(), logged);
});

t.test('a client that goes away mid-request does not disturb the server or its stop', async (t) => {
  const server = await startServer();
  const req = http.request({ host: '127.0.0.1', port: server.port, method: 'POST', path: '/api/v1/__test__/sleep?ms=500' });
  const aborted = new Promise<void>((resolve) => req.on('error', () => resolve()).on('close', () => resolve()));
  req.end();
  // Gone once the request is on the shard, not after a guessed while.
  await sleepersReach(new ApiClient(server.baseUrl, null), 1);
  req.destroy();
  await aborted;
  const health = await request({ baseUrl: server.baseUrl, method: 'GET', path: '/health' });
  t.equal(health.status, 200);
  t.equal(await server.stop(), 0, 'the aborted request does not hold up the stop');
});

t.test('a stopped server finishes in-flight requests and exits 0', async (t) => {
  const server = await startServer();
  const api = new ApiClient(server.baseUrl, server.owner);
  const slow = api.post('/__test__/sleep', { ms: 700 });
  await sleepersReach(api, 1);
  const exitCode = server.stop();
  const answer = await slow;
  t.equal(answer.status, 200, 'the in-flight request was answered');
  t.equal(await exitCode, 0);
});

t.test('an acknowledged write survives a hard kill of the server', async (t) => {
  const first = await startServer();
  const api = new ApiClient(first.baseUrl, first.owner);
  const ids: number[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await api.post('/messages', { type: 'stream', to: 'general', topic: 'durable', content: `message ${i}` });
    ids.push(Number(res.body['id']));
  }
  await first.kill();
  const second = await startServer({ dataDir: first.dataDir });
  t.teardown(() => second.stop());
  const again = new ApiClient(second.baseUrl, second.owner);
  for (const [i, id] of ids.entries()) {
    const res = await again.get(`/messages/${id}`, { apply_markdown: false });
    t.equal((res.body['message'] as Record<string, unknown> | undefined)?.['content'], `message ${i}`);
  }
});

t.test('test hooks cannot be reached without TEST_HOOKS', async (t) => {
  const server = await startServer({ env: { TEST_HOOKS: '0' } });
  t.teardown(() => server.stop());
  const res = await new ApiClient(server.baseUrl, server.owner).post('/__test__/crash_shard');
  t.equal(res.status, 404);
  const health = await request({ baseUrl: server.baseUrl, method: 'GET', path: '/health' });
  t.equal(health.status, 200);
});
