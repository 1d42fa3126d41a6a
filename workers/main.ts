import { parentPort, workerData } from 'node:worker_threads';
import { decodeToShard, encodeFrame } from '../src/wire/codec';
import type { FromShard, ResponseFrame, ShardSettings, ThreadMessage } from '../src/wire/protocol';
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

function sendBinary(frame: ResponseFrame, bytes: Uint8Array): void {
  // A view of part of a buffer is copied first (the Uint8Array constructor copies; a Buffer's
  // own slice() would not), so only memory the bytes own is ever transferred.
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
  const encoded = encodeFrame({ ...frame, binary: { contentType: frame.binary?.contentType ?? '', bytes: new Uint8Array(0) } });
  const message: ThreadMessage = { frame: encoded, attached: owned.buffer as ArrayBuffer };
  port?.postMessage(message, [encoded, owned.buffer as ArrayBuffer]);
}

// Responses finished in the same turn (woken polls answer together) leave in one message;
// setImmediate runs after every microtask of the turn, so the batch is whole. A large batch
// leaves in chunks, so the front end starts writing while the rest are still being built.
const RESPONSES_PER_MESSAGE = 100;
let finished: ResponseFrame[] = [];

function respond(frame: ResponseFrame): void {
  // Binary answers leave at once, their bytes transferred beside the frame.
  if (frame.binary) return sendBinary(frame, frame.binary.bytes);
  finished.push(frame);
  if (finished.length === 1) setImmediate(flushResponses);
  else if (finished.length >= RESPONSES_PER_MESSAGE) flushResponses();
}

function flushResponses(): void {
  const frames = finished;
  if (frames.length === 0) return;
  finished = [];
  send(frames.length === 1 ? (frames[0] as ResponseFrame) : { kind: 'responses', frames });
}

port.on('message', (message: ThreadMessage) => {
  const frame = decodeToShard(message instanceof ArrayBuffer ? message : message.frame);
  switch (frame.kind) {
    case 'request':
      // The file parts are views of the transferred body, never copies.
      if (!(message instanceof ArrayBuffer)) {
        const body = message.attached;
        frame.files = (frame.fileRanges ?? []).map((range) => ({
          field: range.field,
          filename: range.filename,
          contentType: range.contentType,
          data: new Uint8Array(body, range.offset, range.length),
        }));
      }
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
