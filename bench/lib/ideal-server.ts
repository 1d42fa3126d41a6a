import path from 'node:path';
import { Worker } from 'node:worker_threads';
import uWS from 'uWebSockets.js';
import { decodeFromShard, encodeFrame } from '../../src/wire/codec';
import { requestFrame } from './request-frame';

/**
 * The ceiling of the storage scenarios: the server's process layout with nothing else in it.
 * uWS reads the request, one msgpack frame goes to a worker thread, the worker does the one
 * SQLite operation the scenario needs (bench/lib/ideal-worker.ts) and the reply comes back the
 * same way. No realm, no routing, no auth, no validation, no rendering.
 *
 *   node ideal-server.js <port> send <db file>   one durable insert per request, group commit
 *   node ideal-server.js <port> read <db file>   one indexed 100-row range read per request
 */
const [portArg, mode, dbFile] = process.argv.slice(2);
const worker = new Worker(path.join(__dirname, 'ideal-worker.js'), { workerData: { mode, dbFile } });
const pending = new Map<number, { res: uWS.HttpResponse; aborted: boolean }>();
let nextId = 1;

worker.on('message', (bytes: ArrayBuffer) => {
  const frame = decodeFromShard(bytes);
  if (frame.kind !== 'response') return;
  const waiting = pending.get(frame.id);
  pending.delete(frame.id);
  if (!waiting || waiting.aborted) return;
  waiting.res.cork(() => waiting.res.writeStatus('200 OK').writeHeader('Content-Type', 'application/json').end(frame.body));
});

function forward(state: { res: uWS.HttpResponse; aborted: boolean }, params: Record<string, string>): void {
  const id = nextId++;
  pending.set(id, state);
  const frame = requestFrame({ id, realm: 'ideal', route: mode === 'send' ? 'POST /messages' : 'GET /messages', params });
  const bytes = encodeFrame(frame);
  worker.postMessage(bytes, [bytes]);
}

const app = uWS.App();
app.any('/*', (res, req) => {
  const state = { res, aborted: false };
  res.onAborted(() => (state.aborted = true));
  const query = req.getQuery() ?? '';
  if (req.getHeader('content-length') === '') {
    forward(state, Object.fromEntries(new URLSearchParams(query)));
    return;
  }
  const chunks: Buffer[] = [];
  res.onData((chunk, isLast) => {
    chunks.push(Buffer.from(chunk.slice(0)));
    if (isLast) forward(state, Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString())));
  });
});
app.listen('127.0.0.1', Number(portArg), (socket) => {
  if (!socket) process.exit(1);
});
process.on('SIGTERM', () => void worker.terminate().then(() => process.exit(0)));
