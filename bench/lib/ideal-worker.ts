import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { decodeToShard, encodeFrame } from '../../src/wire/codec';

/** The worker of bench/lib/ideal-server.ts: one SQLite operation per request frame. */
const { mode, dbFile } = workerData as { mode: 'send' | 'read'; dbFile: string };
const db = new Database(dbFile, { readonly: mode === 'read' });
if (mode === 'send') {
  db.pragma('journal_mode = WAL');
  db.exec(
    'CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY AUTOINCREMENT, stream_id INTEGER, topic TEXT, content TEXT, date_sent INTEGER) STRICT',
  );
}
// The same durability as the realm files (workers/db/open.ts).
db.pragma('synchronous = FULL');

function reply(id: number, body: string): void {
  const bytes = encodeFrame({ kind: 'response', id, status: 200, headers: {}, body });
  parentPort?.postMessage(bytes, [bytes]);
}

const insert = mode === 'send' ? db.prepare('INSERT INTO messages (stream_id, topic, content, date_sent) VALUES (1, ?, ?, ?)') : null;
let batch: { id: number; topic: string; content: string }[] = [];

/** Group commit as the realm does it: every request of one event-loop turn in one transaction. */
function commitBatch(): void {
  const items = batch;
  batch = [];
  const ids: number[] = [];
  db.transaction(() => {
    const now = Math.floor(Date.now() / 1000);
    for (const item of items) ids.push(Number(insert?.run(item.topic, item.content, now).lastInsertRowid));
  }).immediate();
  items.forEach((item, i) => reply(item.id, JSON.stringify({ result: 'success', msg: '', id: ids[i] })));
}

const rangeRead =
  mode === 'read'
    ? db.prepare(
        `SELECT id, sender_id, topic, content, rendered_content, date_sent FROM messages
         WHERE stream_id = ? AND topic = ? COLLATE NOCASE ORDER BY id DESC LIMIT 100`,
      )
    : null;

parentPort?.on('message', (bytes: ArrayBuffer) => {
  const frame = decodeToShard(bytes);
  if (frame.kind !== 'request') return;
  if (mode === 'send') {
    batch.push({ id: frame.id, topic: frame.params['topic'] ?? '', content: frame.params['content'] ?? '' });
    if (batch.length === 1) setImmediate(commitBatch);
    return;
  }
  const rows = rangeRead?.all(Number(frame.params['stream_id'] ?? 1), frame.params['topic'] ?? '') ?? [];
  reply(frame.id, JSON.stringify({ result: 'success', msg: '', messages: rows.reverse() }));
});
