import { parentPort } from 'node:worker_threads';
import { decodeToShard, encodeFrame } from '../../src/wire/codec';

/** Echoes frames back: msgpack frames as msgpack, other messages by structured clone. */
parentPort?.on('message', (message: unknown) => {
  if (message instanceof ArrayBuffer) {
    const frame = decodeToShard(message);
    const reply = encodeFrame({
      kind: 'response',
      id: frame.kind === 'request' ? frame.id : 0,
      status: 200,
      headers: {},
      body: '{"result":"success","msg":"","id":1}',
    });
    parentPort?.postMessage(reply, [reply]);
  } else {
    const frame = message as { id: number };
    parentPort?.postMessage({ kind: 'response', id: frame.id, status: 200, headers: {}, body: '{"result":"success","msg":"","id":1}' });
  }
});
