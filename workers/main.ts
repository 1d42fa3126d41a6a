import { parentPort, workerData } from 'node:worker_threads';
import { BodyRing, joinInto } from '../src/wire/body-ring';
import { decodeToShard, encodeFrame } from '../src/wire/codec';
import { SlicedQueue } from '../src/wire/sliced-queue';
import { LONG_POLL_ROUTE_IDS } from '../src/wire/routes';
import type { FromShard, ResponseBatchFrame, ResponseFrame, ShardSettings, ThreadMessage, ToShard } from '../src/wire/protocol';
import { createShardLogger } from './lib/log';
import { shardStats } from './lib/shard-stats';
import { Shard } from './shard';

/** Shard thread entry: decode a frame, let the owning realm handle it, encode the answer. */
const settings = workerData as ShardSettings;
const log = createShardLogger(settings.logLevel, settings.shardIndex, settings.logFormat);
// The capacity benchmark reads what kept this thread busy (GET /__test__/shard_stats).
if (settings.testHooks) shardStats.enable();
// A thread slow to load, as on a loaded machine: the front end's watchdog must wait for it.
for (const until = Date.now() + settings.testShardLoadMs; Date.now() < until;);
const shard = new Shard(settings, log);
const port = parentPort;
if (!port) throw new Error('workers/main.ts must run as a worker thread');
const EMPTY = new Uint8Array(0);

function send(frame: FromShard): void {
  const bytes = encodeFrame(frame);
  port?.postMessage(bytes, [bytes]);
}

const bodyRing = new BodyRing(settings.bodyRing);

function sendBinary(frame: ResponseFrame): void {
  shardStats.answered(frame.id);
  const contentType = frame.binary?.contentType ?? '';
  const pieces = frame.binary?.pieces ?? [frame.binary?.bytes ?? EMPTY];
  let length = 0;
  for (const piece of pieces) length += piece.length;
  const slot = bodyRing.write(pieces, length);
  if (slot) return send(afterLastCommit({ ...frame, binary: { contentType, bytes: EMPTY, slot } }));
  // Too large for the ring, or no room yet: transferred beside the frame, from memory of its
  // own (a Buffer may be a view of a shared pool, and transferring would detach all of it).
  const owned =
    pieces.length === 1 && ownsItsBuffer(pieces[0] as Uint8Array) ? (pieces[0] as Uint8Array) : joinInto(pieces, new Uint8Array(length));
  const encoded = encodeFrame(afterLastCommit({ ...frame, binary: { contentType, bytes: EMPTY } }));
  const message: ThreadMessage = { frame: encoded, attached: owned.buffer as ArrayBuffer };
  port?.postMessage(message, [encoded, owned.buffer as ArrayBuffer]);
}

function ownsItsBuffer(bytes: Uint8Array): boolean {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && !(bytes.buffer instanceof SharedArrayBuffer);
}

// Responses finished in the same turn (woken polls answer together) leave in one message;
// setImmediate runs after every microtask of the turn, so the batch is whole. A large batch
// leaves in chunks, so the front end starts writing while the rest are still being built.
const RESPONSES_PER_MESSAGE = 100;
let finished: ResponseFrame[] = [];

function respond(frame: ResponseFrame): void {
  // Binary answers leave at once, their bytes in the body ring or transferred beside the frame.
  if (frame.binary) return sendBinary(frame);
  finished.push(frame);
  if (finished.length === 1) setImmediate(flushResponses);
  else if (finished.length >= RESPONSES_PER_MESSAGE) flushResponses();
}

function flushResponses(): void {
  const frames = finished;
  if (frames.length === 0) return;
  finished = [];
  if (shardStats.enabled) for (const frame of frames) shardStats.answered(frame.id);
  const answers: ResponseFrame | ResponseBatchFrame = frames.length === 1 ? (frames[0] as ResponseFrame) : { kind: 'responses', frames };
  shardStats.time(
    () => `send ${frames.length} responses`,
    () => send(afterLastCommit(answers)),
  );
}

/** Marks what leaves now with the shard's last commit: the front end holds it until that is on disk. */
function afterLastCommit<Frame extends { durableAfter?: number }>(frame: Frame): Frame {
  const durableAfter = shard.durableAfter;
  if (durableAfter !== undefined) frame.durableAfter = durableAfter;
  return frame;
}

// Node hands over every message waiting on the port in one go; requests run in slices so the
// group commit and the batched answers (both on setImmediate) get their turn within a burst.
const SLICE_MS = 5;
const LONG_POLL_ROUTES = new Set<string>(LONG_POLL_ROUTE_IDS);
const requests = new SlicedQueue<Arrived>((arrived) => handle(arrived.frame, arrived.attached), SLICE_MS);

interface Arrived {
  frame: ToShard;
  attached?: ArrayBuffer | undefined;
}

port.on('message', (message: ThreadMessage) => {
  const frame = decodeToShard(message instanceof ArrayBuffer ? message : message.frame);
  if (frame.kind !== 'batch') return arrive({ frame, attached: message instanceof ArrayBuffer ? undefined : message.attached });
  // The front end's frames of one turn of its loop, in the order it sent them.
  for (const each of frame.frames) arrive({ frame: each });
});

function arrive(arrived: Arrived): void {
  const frame = arrived.frame;
  if (shardStats.enabled && frame.kind === 'request' && !LONG_POLL_ROUTES.has(frame.route)) shardStats.arrived(frame.id);
  requests.push(arrived);
}

/** `attached`: the transferred body holding a request's files. */
function handle(frame: ToShard, attached?: ArrayBuffer): void {
  switch (frame.kind) {
    case 'request':
      // The file parts are views of the transferred body, never copies.
      if (attached) {
        const body = attached;
        frame.files = (frame.fileRanges ?? []).map((range) => ({
          field: range.field,
          filename: range.filename,
          contentType: range.contentType,
          data: new Uint8Array(body, range.offset, range.length),
        }));
      }
      shardStats.time(
        () => frame.route,
        () => void shard.handle(frame).then(respond),
      );
      return;
    case 'admin':
      void shard.admin(frame).then((result) => send(afterLastCommit(result)));
      return;
    case 'cancel':
      shard.cancel(frame.id);
      return;
    case 'ping':
      send({ kind: 'pong', id: frame.id });
      return;
    case 'serve':
      void shard.serve(frame.realms).then(() => send({ kind: 'serving', id: frame.id }));
      return;
    case 'stats':
      send({ kind: 'stats', id: frame.id, stats: shard.stats() });
      return;
    case 'close':
      void shard.close().then(() => {
        flushResponses();
        send({ kind: 'closed' });
        port?.close();
      });
      return;
  }
}
