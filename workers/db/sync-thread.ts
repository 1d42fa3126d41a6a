import fs from 'node:fs';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { DurableNotice } from '../../src/wire/protocol';
import type { SyncRequest } from './wal-sync';

/**
 * A shard's sync thread (workers/db/wal-sync.ts SyncThread): fsyncs the WAL files its realms
 * committed to and tells the front end, which holds their answers until then
 * (src/wire/protocol.ts DurableAfter). Commits made while an fsync runs share the next one.
 */
const frontEnd = (workerData as { port: MessagePort }).port;
const written = new Set<string>();
let lastTicket = 0;
let roundQueued = false;
let failed = false;
/** A test hook's hold (POST /__test__/sync_hold): no round runs until it is let go. */
let held = false;

parentPort?.on('message', (request: SyncRequest) => {
  if (request.kind === 'hold') {
    // What was committed before the hold is synced first: only later commits wait.
    if (request.on && !failed) syncRound();
    held = request.on;
  } else {
    written.add(request.file);
    lastTicket = request.ticket;
  }
  if (roundQueued || failed || held || written.size === 0) return;
  roundQueued = true;
  // After every request already queued: they all join this round.
  setImmediate(syncRound);
});

function syncRound(): void {
  roundQueued = false;
  if (held) return;
  const files = [...written];
  written.clear();
  const ticket = lastTicket;
  for (const file of files) {
    try {
      syncFile(file);
    } catch (err) {
      // An fsync that failed cannot be retried into success (the kernel may have dropped the
      // pages): the front end ends the shard, and the realm reopens from what is on disk.
      failed = true;
      notify({ kind: 'sync-failed', message: `${file}: ${err instanceof Error ? err.message : String(err)}` });
      return;
    }
  }
  notify({ kind: 'durable', ticket });
}

function syncFile(file: string): void {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (err) {
    // Only a realm's close removes its WAL, and Realm.close fsyncs it first.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    fs.fdatasyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function notify(notice: DurableNotice): void {
  frontEnd.postMessage(notice);
}
