import { parentPort, workerData } from 'node:worker_threads';
import { decodeToShard, encodeFrame } from '../src/wire/codec';
import type { FromShard, ResponseFrame, ShardSettings } from '../src/wire/protocol';
import { createShardLogger } from './lib/log';
import { Shard } from './shard';

/** Shard thread entry: decode a frame, let the owning realm handle it, encode the answer. */
const settings = workerData as ShardSettings;
const log = createShardLogger(settings.logLevel, settings.shardIndex);
const shard = new Shard(settings, log);
const port = parentPort;
if (!port) throw new Error('workers/main.ts must run as a worker thread');

function send(frame: FromShard): void {
  const bytes = encodeFrame(frame);
  port?.postMessage(bytes, [bytes]);
}

// Responses finished in the same turn (woken polls answer together) leave in one message;
// setImmediate runs after every microtask of the turn, so the batch is whole.
let finished: ResponseFrame[] = [];

function respond(frame: ResponseFrame): void {
  finished.push(frame);
  if (finished.length === 1) setImmediate(flushResponses);
}

function flushResponses(): void {
  const frames = finished;
  if (frames.length === 0) return;
  finished = [];
  send(frames.length === 1 ? (frames[0] as ResponseFrame) : { kind: 'responses', frames });
}

port.on('message', (bytes: ArrayBuffer) => {
  const frame = decodeToShard(bytes);
  switch (frame.kind) {
    case 'request':
      void shard.handle(frame).then(respond);
      return;
    case 'cancel':
      shard.cancel(frame.id);
      return;
    case 'ping':
      send({ kind: 'pong', id: frame.id });
      return;
    case 'close':
      void shard.close().then(() => {
        flushResponses();
        send({ kind: 'closed' });
        port.close();
      });
      return;
  }
});
