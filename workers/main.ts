import { parentPort, workerData } from 'node:worker_threads';
import { decodeToShard, encodeFrame } from '../src/wire/codec';
import type { FromShard, ShardSettings } from '../src/wire/protocol';
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

port.on('message', (bytes: ArrayBuffer) => {
  const frame = decodeToShard(bytes);
  switch (frame.kind) {
    case 'request':
      void shard.handle(frame).then(send);
      return;
    case 'cancel':
      shard.cancel(frame.id);
      return;
    case 'ping':
      send({ kind: 'pong', id: frame.id });
      return;
    case 'close':
      void shard.close().then(() => {
        send({ kind: 'closed' });
        port.close();
      });
      return;
  }
});
