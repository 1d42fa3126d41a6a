import net from 'node:net';
import t from 'tap';
import { request } from '../helpers/http';
import { requestHead } from '../helpers/raw-http';
import { startServer } from '../helpers/server';

const HALF_OPEN = 200;
const NORMAL = 50;

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
  const holders = await Promise.all(
    Array.from(
      { length: HALF_OPEN },
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(server.port, '127.0.0.1', () => socket.write(half, () => resolve(socket)));
          socket.on('error', reject);
        }),
    ),
  );
  t.teardown(() => holders.forEach((socket) => socket.destroy()));
  const answers = await Promise.all(
    Array.from({ length: NORMAL }, () =>
      request({ baseUrl: server.baseUrl, method: 'GET', path: '/api/v1/server_settings' }).then((res) => res.status),
    ),
  );
  t.strictSame(
    answers,
    Array.from({ length: NORMAL }, () => 200),
  );
});
