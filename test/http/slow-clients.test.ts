import net from 'node:net';
import t from 'tap';
import { request } from '../helpers/http';
import { requestHead } from '../helpers/raw-http';
import { startServer } from '../helpers/server';

// 500 half-sent heads (issue 20 §4) need ~500 descriptors on each side; `ulimit -n` is 20,000 here.
const HALF_OPEN = 500;
const NORMAL = 200;
const LANES = 10;

t.test('a head trickled a byte at a time is cut off before it completes, unanswered', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  // 120 bytes at one per 500 ms would take a minute; uWS closes a connection that has not
  // completed its head within its idle timeout (10 s, on a 4 s timer).
  const head = requestHead('GET', '/api/v1/server_settings', server.port, { 'X-Padding': 'p'.repeat(60) });
  const outcome = await new Promise<{ sent: number; received: number }>((resolve) => {
    const socket = net.connect(server.port, '127.0.0.1');
    let sent = 0;
    let received = 0;
    const timer = setInterval(() => {
      if (sent < head.length) socket.write(head.charAt(sent++));
    }, 500);
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ sent, received });
    });
  });
  t.ok(outcome.sent < head.length, `closed after ${outcome.sent} of ${head.length} bytes`);
  t.equal(outcome.received, 0, 'no answer to a head that never completed');
});

t.test(`${HALF_OPEN} connections holding half a head do not keep ${NORMAL} others from being answered`, async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const half = requestHead('GET', '/api/v1/server_settings', server.port).slice(0, 30);
  const holders: net.Socket[] = [];
  t.teardown(() => holders.forEach((socket) => socket.destroy()));
  // A hundred connects at a time: thousands at once overflow the listen backlog (bench/lib/parked-polls.ts).
  for (let i = 0; i < HALF_OPEN; i += 100) {
    const batch = await Promise.all(
      Array.from(
        { length: Math.min(100, HALF_OPEN - i) },
        () =>
          new Promise<net.Socket>((resolve, reject) => {
            const socket = net.connect(server.port, '127.0.0.1', () => socket.write(half, () => resolve(socket)));
            socket.on('error', reject);
          }),
      ),
    );
    holders.push(...batch);
  }
  // Ordinary requests in a few lanes while the heads are held; their latencies are reported,
  // not asserted (a shared machine's timing is no test).
  const statuses: number[] = [];
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      for (let i = 0; i < NORMAL / LANES; i++) {
        const start = performance.now();
        const res = await request({ baseUrl: server.baseUrl, method: 'GET', path: '/api/v1/server_settings' });
        latencies.push(performance.now() - start);
        statuses.push(res.status);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (p: number): string => (latencies[Math.ceil((p / 100) * latencies.length) - 1] ?? NaN).toFixed(1);
  const open = holders.filter((socket) => !socket.destroyed && socket.readyState === 'open').length;
  t.comment(`${open} of ${HALF_OPEN} half-sent heads still held; ${NORMAL} ordinary requests: p50 ${at(50)} ms, p99 ${at(99)} ms`);
  t.strictSame(
    statuses,
    Array.from({ length: NORMAL }, () => 200),
    'every ordinary request answered',
  );
  t.equal(open, HALF_OPEN, 'the held connections were all still open while the others were served');
});
