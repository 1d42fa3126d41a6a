import type { Worker } from 'node:worker_threads';
import t from 'tap';
import { Shard } from '../../src/realm/shard-thread';
import { decodeToShard } from '../../src/wire/codec';
import type { ThreadMessage, ToShard, ToShardBatchFrame } from '../../src/wire/protocol';

/** A stand-in thread that keeps what it was posted, decoded. */
function recordingThread(): { thread: Worker; received: { frame: ToShard | ToShardBatchFrame; attached: boolean }[] } {
  const received: { frame: ToShard | ToShardBatchFrame; attached: boolean }[] = [];
  const thread = {
    postMessage(message: ThreadMessage) {
      const attached = !(message instanceof ArrayBuffer);
      received.push({ frame: decodeToShard(attached ? message.frame : message), attached });
    },
  };
  return { thread: thread as unknown as Worker, received };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const ping = (id: number): ToShard => ({ kind: 'ping', id });

t.test('frames posted in one turn leave in one message, in order, after it', async (t) => {
  const shard = new Shard(0);
  const { thread, received } = recordingThread();
  shard.attach(thread);
  shard.post(ping(1));
  shard.post({ kind: 'cancel', id: 7 });
  shard.post(ping(2));
  t.strictSame(received, [], 'nothing leaves within the turn');
  await nextTurn();
  t.strictSame(received, [
    {
      frame: {
        kind: 'batch',
        frames: [
          { kind: 'ping', id: 1 },
          { kind: 'cancel', id: 7 },
          { kind: 'ping', id: 2 },
        ],
      },
      attached: false,
    },
  ]);
  shard.post(ping(3));
  await nextTurn();
  t.strictSame(received.slice(1), [{ frame: { kind: 'ping', id: 3 }, attached: false }], 'a lone frame goes as itself');
});

t.test('a large turn leaves in parts of 100 frames', async (t) => {
  const shard = new Shard(0);
  const { thread, received } = recordingThread();
  shard.attach(thread);
  for (let id = 1; id <= 250; id++) shard.post(ping(id));
  t.equal(received.length, 2, 'two full parts before the turn ends');
  await nextTurn();
  const ids = received.map(({ frame }) => (frame.kind === 'batch' ? frame.frames.map((f) => (f.kind === 'ping' ? f.id : -1)) : []));
  t.strictSame(
    ids.map((part) => part.length),
    [100, 100, 50],
  );
  t.strictSame(
    ids.flat(),
    Array.from({ length: 250 }, (_, i) => i + 1),
    'every frame once, in order',
  );
});

t.test('a body with files leaves at once, after the frames posted before it', async (t) => {
  const shard = new Shard(0);
  const { thread, received } = recordingThread();
  shard.attach(thread);
  shard.post(ping(1));
  shard.post(ping(2), new ArrayBuffer(8));
  t.strictSame(received, [
    { frame: { kind: 'ping', id: 1 }, attached: false },
    { frame: { kind: 'ping', id: 2 }, attached: true },
  ]);
  await nextTurn();
  t.equal(received.length, 2, 'nothing left to send');
});

t.test('frames meant for a thread that ended are not sent to the next one', async (t) => {
  const shard = new Shard(0);
  const first = recordingThread();
  shard.attach(first.thread);
  shard.post(ping(1));
  shard.attach(null);
  shard.post(ping(2));
  const second = recordingThread();
  shard.attach(second.thread);
  shard.post(ping(3));
  await nextTurn();
  t.strictSame(first.received, []);
  t.strictSame(second.received, [{ frame: { kind: 'ping', id: 3 }, attached: false }]);
});
