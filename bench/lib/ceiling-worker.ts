import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { decodeToShard, encodeFrame } from '../../src/wire/codec';
import type { ThreadMessage } from '../../src/wire/protocol';

/** The worker of bench/lib/ceiling-server.ts: the one piece of work each mode stands for. */
const { mode, dbFile } = workerData as { mode: 'echo' | 'users' | 'bytes'; dbFile: string };
const ECHO_BODY = '{"result":"success","msg":""}';
const db = mode === 'users' ? new Database(dbFile, { readonly: true }) : null;
// One read on the primary key of every user row: what GET /users cannot do with less.
const everyUser = db?.prepare(
  `SELECT id, email, delivery_email, full_name, role, is_active, is_bot, bot_type, bot_owner_id,
     timezone, date_joined, avatar_version, avatar_source FROM users ORDER BY id`,
);
/** The last uploaded body: GET answers with a fresh copy of it, as a read from storage would. */
let stored = new Uint8Array(0);

function reply(id: number, body: string): void {
  const bytes = encodeFrame({ kind: 'response', id, status: 200, headers: {}, body });
  parentPort?.postMessage(bytes, [bytes]);
}

parentPort?.on('message', (message: ThreadMessage) => {
  const frame = decodeToShard(message instanceof ArrayBuffer ? message : message.frame);
  if (frame.kind !== 'request') return;
  if (mode === 'echo') return reply(frame.id, ECHO_BODY);
  if (mode === 'users') return reply(frame.id, JSON.stringify({ result: 'success', msg: '', members: everyUser?.all() ?? [] }));
  if (!(message instanceof ArrayBuffer)) {
    stored = new Uint8Array(message.attached);
    return reply(frame.id, JSON.stringify({ result: 'success', msg: '', uri: '/user_uploads/1/ab/cd/file.bin' }));
  }
  const copy = stored.slice();
  const bytes = encodeFrame({ kind: 'response', id: frame.id, status: 200, headers: {}, body: '' });
  const answer: ThreadMessage = { frame: bytes, attached: copy.buffer };
  parentPort?.postMessage(answer, [bytes, copy.buffer]);
});
