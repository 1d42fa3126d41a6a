import net from 'node:net';
import t from 'tap';
import { shardIndexFor } from '../../src/realm/router';
import { ApiClient, request, type ApiResponse } from '../helpers/http';
import { parseAnswers, requestHead, type WireAnswer } from '../helpers/raw-http';
import { startServer, type TestServer } from '../helpers/server';

// Readiness (issue 23 "Observability"): GET /ready and GET /health?ready=1 answer 200 only when
// every shard answers a ping round trip, 503 JSON naming the silent shards otherwise, and 503
// once a graceful stop has begun (so a load balancer drains the process first).

const READY = { result: 'success', msg: '', shards: 2 };

function ready(server: TestServer, path = '/ready'): Promise<ApiResponse> {
  return request({ baseUrl: server.baseUrl, method: 'GET', path });
}

t.test('readiness follows the shards', async (t) => {
  const server = await startServer({ env: { SHARDS: '2' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const shard = shardIndexFor('default', 2);

  for (const path of ['/ready', '/health?ready=1']) {
    const res = await ready(server, path);
    t.strictSame([res.status, res.body], [200, READY], `${path}: every shard answers`);
  }

  // The default realm's shard stuck in a synchronous loop (the watchdog's 30 s are far off)
  const spin = api.post('/__test__/spin', { ms: 4_000 });
  let stuck = await ready(server);
  const deadline = Date.now() + 10_000;
  while (stuck.status === 200 && Date.now() < deadline) stuck = await ready(server);
  t.strictSame(
    [stuck.status, stuck.body],
    [503, { result: 'error', msg: `Not ready: shard ${shard} of 2 is not answering`, shards: 2, silent_shards: [shard] }],
    'a shard that does not answer makes the process unready, and is named',
  );
  t.equal((await spin).status, 200);
  const back = await ready(server);
  t.strictSame([back.status, back.body], [200, READY], 'ready again once the shard answers');
});

/** A kept-alive connection on which requests are sent one after another. */
class KeptConnection {
  private received = Buffer.alloc(0);
  private readonly socket: net.Socket;
  private answered = 0;
  private waiter: (() => void) | null = null;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.waiter?.();
    });
  }

  async get(path: string, port: number): Promise<WireAnswer> {
    this.socket.write(requestHead('GET', path, port));
    const index = this.answered++;
    for (;;) {
      const answer = parseAnswers(this.received)[index];
      if (answer) return answer;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

t.test('a stopping server is not ready', async (t) => {
  const server = await startServer({ env: { SHARDS: '2', LOG_LEVEL: 'info' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const kept = new KeptConnection(server.port);
  t.teardown(() => kept.close());
  const before = await kept.get('/ready', server.port);
  t.strictSame([before.status, JSON.parse(before.body)], [200, READY]);

  // A request in flight holds the stop open; the kept connection still reaches the server.
  const inFlight = api.post('/__test__/sleep', { ms: 3_000 });
  while ((await api.get('/__test__/sleepers')).body['sleeping'] !== 1) await new Promise((resolve) => setTimeout(resolve, 10));
  const stopped = server.stop();
  await server.logLine((line) => line.includes('stopping: finishing in-flight requests'));
  const during = await kept.get('/ready', server.port);
  t.strictSame([during.status, JSON.parse(during.body)], [503, { result: 'error', msg: 'The server is stopping', shards: 2 }]);
  t.equal((await inFlight).status, 200, 'the request in flight is still answered');
  t.equal(await stopped, 0);
});
