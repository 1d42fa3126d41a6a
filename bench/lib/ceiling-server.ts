import path from 'node:path';
import { Worker } from 'node:worker_threads';
import uWS from 'uWebSockets.js';
import { decodeFromShard, encodeFrame } from '../../src/wire/codec';
import type { ThreadMessage } from '../../src/wire/protocol';
import { requestFrame } from './request-frame';

/**
 * The ceiling of issue 9's scenarios: the server's process layout (uWS → msgpack frame → worker
 * thread → reply) with only the scenario's irreducible work behind it (bench/lib/ceiling-worker.ts).
 *
 *   node ceiling-server.js <port> echo            a frame answered with nothing behind it
 *   node ceiling-server.js <port> users <db file> one indexed read of every user row
 *   node ceiling-server.js <port> bytes           POST: the body received into one buffer and
 *                                                 transferred to the worker; GET: the stored
 *                                                 bytes transferred back and written out
 */
const [portArg, mode, dbFile] = process.argv.slice(2);
const worker = new Worker(path.join(__dirname, 'ceiling-worker.js'), { workerData: { mode, dbFile: dbFile ?? '' } });
const pending = new Map<number, { res: uWS.HttpResponse; aborted: boolean }>();
let nextId = 1;

worker.on('message', (message: ThreadMessage) => {
  const frame = decodeFromShard(message instanceof ArrayBuffer ? message : message.frame);
  if (frame.kind !== 'response') return;
  const waiting = pending.get(frame.id);
  pending.delete(frame.id);
  if (!waiting || waiting.aborted) return;
  const res = waiting.res;
  if (message instanceof ArrayBuffer) {
    res.cork(() => res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json').end(frame.body));
  } else {
    const bytes = new Uint8Array(message.attached);
    res.cork(() => res.writeStatus('200 OK').writeHeader('Content-Type', 'application/octet-stream').end(bytes));
  }
});

function forward(state: { res: uWS.HttpResponse; aborted: boolean }, method: string, body: Buffer | null): void {
  const id = nextId++;
  pending.set(id, state);
  const frame = requestFrame({ id, realm: 'ceiling', route: `${method} /${mode ?? ''}` });
  const bytes = encodeFrame(frame);
  if (body) {
    // As the front end does (src/http/server.ts): the body's own memory travels, not a copy.
    const message: ThreadMessage = { frame: bytes, attached: body.buffer as ArrayBuffer };
    worker.postMessage(message, [bytes, body.buffer as ArrayBuffer]);
  } else {
    worker.postMessage(bytes, [bytes]);
  }
}

const app = uWS.App();
app.any('/*', (res, req) => {
  const state = { res, aborted: false };
  res.onAborted(() => (state.aborted = true));
  const method = req.getMethod().toUpperCase();
  const lengthHeader = req.getHeader('content-length');
  if (lengthHeader === '') return forward(state, method, null);
  // One buffer of the announced size owning its memory, filled once: the front end's copy.
  const body = Buffer.allocUnsafeSlow(Number(lengthHeader));
  let received = 0;
  res.onData((chunk, isLast) => {
    body.set(new Uint8Array(chunk), received);
    received += chunk.byteLength;
    if (isLast) forward(state, method, body);
  });
});
app.listen('127.0.0.1', Number(portArg), (socket) => {
  if (!socket) process.exit(1);
});
process.on('SIGTERM', () => void worker.terminate().then(() => process.exit(0)));
