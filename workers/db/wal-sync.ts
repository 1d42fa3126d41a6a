import fs from 'node:fs';

/**
 * Durability of a realm's commits without the shard thread waiting on the disk. The realm's
 * connection runs with synchronous=NORMAL, under which SQLite writes a commit into the WAL
 * file and returns without fsync; this then fsyncs the WAL on a libuv thread, and the commit's
 * requests are answered (and its events delivered) only once that is done, so an acknowledged
 * write is on disk exactly as with synchronous=FULL (DESIGN §Storage). Commits made while one
 * fsync runs wait for the next, which covers them all: one fsync per round, as group commit.
 * fsync flushes the file, not the descriptor, so this descriptor covers SQLite's writes.
 * Measured (bench mixed, issue 24): a commit of one action held the shard thread ~4 ms.
 */
export class WalSync {
  private fd: number | null = null;
  private running = false;
  private waiting: ((err: Error | null) => void)[] = [];

  constructor(private readonly walFile: string) {}

  /** Calls `done` once everything committed so far is on disk (or the fsync failed). */
  afterCommit(done: (err: Error | null) => void): void {
    this.waiting.push(done);
    if (!this.running) this.syncWaiting();
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
