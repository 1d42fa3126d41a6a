import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Db } from './open';

export type CheckpointRequest = { kind: 'checkpoint'; file: string } | { kind: 'forget'; file: string } | { kind: 'stop' };

/** The checkpointer thread closed its connection to `file` (the answer to `forget`). */
export interface ForgottenAnswer {
  kind: 'forgotten';
  file: string;
}

export interface CheckpointAnswer {
  file: string;
  ok: boolean;
  framesInWal: number;
  framesCopied: number;
  error?: string;
}

/**
 * Who copies a realm's WAL back into its database file. The realm's own connection runs with
 * wal_autocheckpoint=0: SQLite's automatic checkpoint ran inside the commit that crossed 1,000
 * pages, on the shard thread, copying and fsyncing the database file while every request of the
 * realm waited (issue 24). Committed data is durable in the WAL either way (workers/db/wal-sync.ts);
 * a checkpoint only keeps the WAL short.
 */
export interface Checkpointer {
  /** Asks for a checkpoint of `file` soon; one already under way for it suffices. */
  request(file: string): void;
  /**
   * The realm closed: its connection here goes too. Resolves once it is closed, so a file let go
   * (a restore, a move) is not checkpointed into by a connection still open on its old WAL.
   */
  forget(file: string): Promise<void>;
  close(): Promise<void>;
}

const STOP_WAIT_MS = 5_000;

/** Checkpoints on a thread of their own, one per shard, started on the first request. */
export class ThreadCheckpointer implements Checkpointer {
  private worker: Worker | null = null;
  private readonly underWay = new Set<string>();
  private readonly forgetting = new Map<string, (() => void)[]>();

  constructor(private readonly onFailure: (answer: CheckpointAnswer) => void) {}

  request(file: string): void {
    if (this.underWay.has(file)) return;
    this.underWay.add(file);
    this.thread().postMessage({ kind: 'checkpoint', file } satisfies CheckpointRequest);
  }

  forget(file: string): Promise<void> {
    this.underWay.delete(file);
    const worker = this.worker;
    if (!worker) return Promise.resolve();
    return new Promise((resolve) => {
      const waiting = this.forgetting.get(file);
      if (waiting) waiting.push(resolve);
      else this.forgetting.set(file, [resolve]);
      worker.postMessage({ kind: 'forget', file } satisfies CheckpointRequest);
    });
  }

  private forgotten(file: string | null): void {
    for (const [waitingFile, resolvers] of this.forgetting) {
      if (file !== null && waitingFile !== file) continue;
      this.forgetting.delete(waitingFile);
      for (const resolve of resolvers) resolve();
    }
  }

  /** Lets the thread close its connections and end; ended by force if it does not soon. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ kind: 'stop' } satisfies CheckpointRequest);
    const timer = setTimeout(() => void worker.terminate(), STOP_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(path.join(__dirname, 'checkpoint-thread.js'));
    // It must not keep a stopping shard alive, and a checkpoint lost with it is only late.
    worker.unref();
    worker.on('message', (answer: CheckpointAnswer | ForgottenAnswer) => {
      if ('kind' in answer) return this.forgotten(answer.file);
      this.underWay.delete(answer.file);
      if (!answer.ok) this.onFailure(answer);
    });
    worker.on('error', (err) => this.onFailure({ file: '', ok: false, framesInWal: 0, framesCopied: 0, error: err.message }));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
      this.underWay.clear();
      // A thread that ended holds no connection.
      this.forgotten(null);
    });
    return (this.worker = worker);
  }
}

/** Checkpoints on the realm's own connection, between turns: for realms built without a shard (unit tests). */
export class InlineCheckpointer implements Checkpointer {
  private readonly dbs = new Map<string, Db>();

  attach(file: string, db: Db): void {
    this.dbs.set(file, db);
  }

  request(file: string): void {
    const db = this.dbs.get(file);
    if (db?.open) db.pragma('wal_checkpoint(PASSIVE)');
  }

  forget(file: string): Promise<void> {
    this.dbs.delete(file);
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
