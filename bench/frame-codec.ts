import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { decodeFromShard, encodeFrame } from '../src/wire/codec';
import { requestFrame } from './lib/request-frame';

const ROUND_TRIPS = 50_000;
const IN_FLIGHT = 64;

const frame = requestFrame({
  id: 0,
  realm: 'default',
  route: 'POST /messages',
  params: { type: 'stream', to: 'general', topic: 'bench', content: 'Hello, **world**! How is everyone doing today?' },
  authorization: 'Basic b3duZXJAZXhhbXBsZS5jb206NXZWQmZ6Qjc5ejNzU3N0MXN1dW00YXN1WklWMThSOHM=',
  userAgent: 'curl/8.0',
});

async function roundTrips(worker: Worker, useMsgpack: boolean): Promise<number> {
  let sent = 0;
  let received = 0;
  const started = process.hrtime.bigint();
  await new Promise<void>((resolve) => {
    const send = (): void => {
      const next = { ...frame, id: sent++ };
      if (useMsgpack) {
        const bytes = encodeFrame(next);
        worker.postMessage(bytes, [bytes]);
      } else {
        worker.postMessage(next);
      }
    };
    worker.on('message', (message: unknown) => {
      if (useMsgpack) decodeFromShard(message as ArrayBuffer);
      received++;
      if (received === ROUND_TRIPS) return resolve();
      if (sent < ROUND_TRIPS) send();
    });
    for (let i = 0; i < IN_FLIGHT; i++) send();
  });
  worker.removeAllListeners('message');
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return ROUND_TRIPS / seconds;
}

/** Front end ↔ shard frames: msgpack with an exact-size transferred buffer vs structured clone. */
export async function run(): Promise<void> {
  const worker = new Worker(path.join(__dirname, 'lib', 'echo-worker.js'));
  try {
    await roundTrips(worker, true); // warm-up
    const msgpack = await roundTrips(worker, true);
    const clone = await roundTrips(worker, false);
    console.log(
      `frame-codec: msgpack+transfer ${msgpack.toFixed(0)} round trips/s | baseline structured clone ${clone.toFixed(0)} round trips/s | ratio ${(msgpack / clone).toFixed(3)}`,
    );
  } finally {
    await worker.terminate();
  }
}

if (require.main === module) void run();
