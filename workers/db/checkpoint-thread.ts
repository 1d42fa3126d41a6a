import Database from 'better-sqlite3';
import { parentPort } from 'node:worker_threads';
import type { CheckpointRequest, CheckpointAnswer, ForgottenAnswer } from './checkpointer';

/**
 * The checkpointer thread (workers/db/checkpointer.ts): its own connection to each realm file,
 * copying committed pages from the WAL into the database file (and fsyncing it) while the
 * shard thread goes on serving. PASSIVE: it never waits for, nor blocks, the realm's writer.
 */
const connections = new Map<string, Database.Database>();

parentPort?.on('message', (request: CheckpointRequest) => {
  if (request.kind === 'stop') {
    // The last connection to close checkpoints and removes the WAL, as a clean stop should.
    for (const db of connections.values()) db.close();
    connections.clear();
    parentPort?.close();
    return;
  }
  if (request.kind === 'forget') {
    connections.get(request.file)?.close();
    connections.delete(request.file);
    parentPort?.postMessage({ kind: 'forgotten', file: request.file } satisfies ForgottenAnswer);
    return;
  }
  let answer: CheckpointAnswer;
  try {
    let db = connections.get(request.file);
    if (!db) connections.set(request.file, (db = new Database(request.file, { fileMustExist: true })));
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    answer = { file: request.file, ok: true, framesInWal: result?.log ?? 0, framesCopied: result?.checkpointed ?? 0 };
  } catch (err) {
    answer = { file: request.file, ok: false, framesInWal: 0, framesCopied: 0, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(answer);
});
