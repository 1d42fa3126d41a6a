import fs from 'node:fs';
import path from 'node:path';
import { Worker, type MessagePort } from 'node:worker_threads';

/**
 * Durability of a realm's commits without the shard thread waiting on the disk. The realm's
 * connection runs with synchronous=NORMAL, under which SQLite writes a commit into the WAL
 * file and returns without fsync; this then fsyncs the WAL on a libuv thread, and the commit's
 * requests are answered (and its events delivered) only once that is done, so an acknowledged
 * write is on disk exactly as with synchronous=FULL (DESIGN §Storage). Commits made while one
 * fsync runs wait for the next, which covers them all: one fsync per round, as group commit.
 * fsync flushes the file, not the descriptor, so this descriptor covers SQLite's writes.
 * Measured (bench mixed, issue 24): a commit of one action held the shard thread ~4 ms.
 * Realms outside a shard (unit tests, the CLI's offline commands) use this; a shard's realms
 * use SyncedByThread below.
 */
export class WalSync {
  private fd: number | null = null;
  private running = false;
  private waiting: ((err: Error | null) => void)[] = [];

  constructor(protected readonly walFile: string) {}

  /** Calls `done` once everything committed so far is on disk (or the fsync failed). */
  afterCommit(done: (err: Error | null) => void): void {
    this.waiting.push(done);
    if (!this.running) this.syncWaiting();
  }

  /** Test hooks: holds fsyncs (see SyncThread.hold); false where the realm syncs on its own thread. */
  hold(_on: boolean): boolean {
    return false;
  }

  /** Flushes at once and stops (a realm closing); commits still waiting are settled. */
  close(): void {
    // Writes outside transact (the event queues saved at a stop) need the flush too.
    if (this.fd === null) {
      try {
        this.fd = fs.openSync(this.walFile, 'r');
      } catch {
        return; // no WAL file: nothing written
      }
    }
    let failure: Error | null = null;
    try {
      fs.fdatasyncSync(this.fd);
    } catch (err) {
      failure = err as Error;
    }
    fs.closeSync(this.fd);
    this.fd = null;
    for (const done of this.waiting.splice(0)) done(failure);
  }

  private syncWaiting(): void {
    const round = this.waiting;
    this.waiting = [];
    let fd: number;
    try {
      // The WAL file exists from the first commit on; it is removed only when the last
      // connection closes, so one descriptor serves the realm's lifetime.
      fd = this.fd ??= fs.openSync(this.walFile, 'r');
    } catch (err) {
      for (const done of round) done(err as Error);
      return;
    }
    this.running = true;
    fs.fdatasync(fd, (err) => {
      this.running = false;
      // A close meanwhile flushed synchronously before closing: this round is on disk.
      for (const done of round) done(this.fd === null ? null : err);
      if (this.waiting.length > 0 && this.fd !== null) this.syncWaiting();
    });
  }
}

/**
 * To the sync thread: a commit (its realm's WAL file and the shard's number for it), or a test
 * hook holding or releasing the thread's fsyncs.
 */
export type SyncRequest = { kind: 'commit'; file: string; ticket: number } | { kind: 'hold'; on: boolean };

/**
 * The shard's sync thread (sync-thread.ts), shared by its realms: it numbers the commits and
 * fsyncs their WALs, and the front end, told by that thread, holds every answer the shard sent
 * after a commit until that commit is durable (src/wire/protocol.ts DurableAfter). The realm's
 * thread neither waits for the disk nor for the fsync's callback: with the WAL synced on a
 * libuv thread, a commit's answers also waited for the realm's thread to finish whatever it had
 * begun meanwhile (the next commit, a collection), and the clients' next requests with them.
 */
export class SyncThread {
  private readonly worker: Worker;
  private closing = false;
  /** The shard's last commit; every answer sent now carries it. 0: none yet. */
  lastTicket = 0;

  constructor(frontEnd: MessagePort, onExit: (code: number) => void) {
    this.worker = new Worker(path.join(__dirname, 'sync-thread.js'), { workerData: { port: frontEnd }, transferList: [frontEnd] });
    // A stopping shard fsyncs its realms itself (Realm.close) and does not wait for this one.
    this.worker.unref();
    this.worker.on('exit', (code) => {
      if (!this.closing) onExit(code);
    });
  }

  /** A commit to `walFile` was made: a new number for it, and its fsync on the thread. */
  committed(walFile: string): void {
    this.worker.postMessage({ kind: 'commit', file: walFile, ticket: ++this.lastTicket } satisfies SyncRequest);
  }

  /** Test hooks only: holds the fsyncs of commits made from now on (`on`), or lets them go. */
  hold(on: boolean): void {
    this.worker.postMessage({ kind: 'hold', on } satisfies SyncRequest);
  }

  close(): Promise<number> {
    this.closing = true;
    return this.worker.terminate();
  }
}

/** A realm's WalSync in a shard: commits are answered at once, and made durable by the sync thread. */
export class SyncedByThread extends WalSync {
  constructor(
    walFile: string,
    private readonly thread: SyncThread,
  ) {
    super(walFile);
  }

  override afterCommit(done: (err: Error | null) => void): void {
    this.thread.committed(this.walFile);
    done(null);
  }

  override hold(on: boolean): boolean {
    this.thread.hold(on);
    return true;
  }
}
