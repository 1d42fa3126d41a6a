import type { Statement } from 'better-sqlite3';
import type { EventBus, QueuedEvent } from '../events/outbox';
import type { Logger } from '../lib/log';
import { shardStats } from '../lib/shard-stats';
import type { Checkpointer } from './checkpointer';
import type { Db } from './open';
import type { WalSync } from './wal-sync';

// How often a realm that commits asks for a checkpoint (workers/db/checkpointer.ts).
const CHECKPOINT_EVERY_MS = 1_000;
/**
 * How long one group commit may run actions before it commits what it has and leaves the rest
 * to the next turn: a burst of writes (a hundred mark-reads at once) would otherwise hold the
 * realm's one thread, and every read and poll of it, for as long as all of them take. One action
 * is never split. While commits are slow the budget grows to the last one's duration, up to the
 * maximum: messages to one large stream dirty the same pages (one per recipient in the per-person rows
 * and their unread index), so a commit of several costs what a commit of one does. At 8 ms each
 * message to 1,000 subscribers committed alone (`send-stream-large` profile: 2,965 ms
 * inserting, 7,771 committing).
 */
export const COMMIT_BUDGET_MS = 8;
const MAX_COMMIT_BUDGET_MS = 24;

/** What an action publishes, delivered after its commit. */
export type Publish = (event: QueuedEvent['event'], userIds: readonly number[]) => void;

interface QueuedAction<Tx> {
  action: (tx: Tx) => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export interface GroupCommitParts<Tx> {
  db: Db;
  file: string;
  realmName: string;
  /** The realm's cached statements (its writes forget the known cache_version). */
  stmt: (sql: string) => Statement;
  events: EventBus;
  walSync: WalSync;
  checkpointer: Checkpointer;
  log: Logger;
  /** An action's view of the transaction, given where its events go. */
  txFor: (publish: Publish) => Tx;
}

/**
 * A realm's writes (DESIGN §Storage): actions queued in the same turn of the event loop run in
 * one SQLite transaction, each inside its own savepoint, so one fsync covers them all; each
 * action's events are delivered, and its promise settled, once the commit is on disk or, in a
 * shard, at once (its front end holds the answers until then: db/wal-sync.ts SyncThread).
 */
export class GroupCommit<Tx> {
  private batch: QueuedAction<Tx>[] = [];
  private lastCheckpointMs = 0;
  private lastCommitMs = 0; // the last group commit's COMMIT alone

  constructor(private readonly parts: GroupCommitParts<Tx>) {}

  transact<T>(action: (tx: Tx) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.batch.push({ action, resolve: resolve as (value: unknown) => void, reject });
      if (this.batch.length === 1) setImmediate(() => this.commitBatch());
    });
  }

  /** Test hooks only (POST /__test__/sync_hold): false when the realm has no sync thread. */
  holdSync(on: boolean): boolean {
    return this.parts.walSync.hold(on);
  }

  /** The realm closes: its WAL flushed; resolves once the checkpointer let go of the file. */
  close(): Promise<void> {
    this.parts.walSync.close();
    return this.parts.checkpointer.forget(this.parts.file);
  }

  private commitBatch(): void {
    const { db, stmt, events } = this.parts;
    let batch = this.batch;
    this.batch = [];
    const outcomes: { ok: boolean; value: unknown; outbox: QueuedEvent[] }[] = [];
    const started = performance.now();
    const budgetMs = Math.min(MAX_COMMIT_BUDGET_MS, Math.max(COMMIT_BUDGET_MS, this.lastCommitMs));
    let actionsDone = started;
    try {
      // IMMEDIATE: take the write lock up front, so a reader-turned-writer never fails midway.
      db.transaction(() => {
        for (const item of batch) {
          if (outcomes.length > 0 && performance.now() - started > budgetMs) break;
          const outbox: QueuedEvent[] = [];
          const check = events.check;
          const tx = this.parts.txFor((event, userIds) => {
            check?.(event);
            outbox.push({ event, userIds });
          });
          // A savepoint per action: a throw undoes only this action's writes.
          stmt('SAVEPOINT action').run();
          try {
            const value = item.action(tx);
            stmt('RELEASE action').run();
            outcomes.push({ ok: true, value, outbox });
          } catch (err) {
            stmt('ROLLBACK TO action').run();
            stmt('RELEASE action').run();
            outcomes.push({ ok: false, value: err, outbox: [] });
          }
        }
        actionsDone = performance.now();
      }).immediate();
      this.lastCommitMs = performance.now() - actionsDone;
    } catch (err) {
      for (const item of batch) item.reject(err);
      return;
    }
    if (outcomes.length < batch.length) {
      // Over budget: the rest go first in the next commit, before actions queued since.
      const queuedSince = this.batch;
      this.batch = batch.slice(outcomes.length).concat(queuedSince);
      if (queuedSince.length === 0) setImmediate(() => this.commitBatch());
      batch = batch.slice(0, outcomes.length);
    }
    if (shardStats.enabled) shardStats.record(`commit of ${batch.length} actions`, started);
    this.parts.walSync.afterCommit((syncError) => {
      if (syncError) this.parts.log.error({ err: syncError, realm: this.parts.realmName }, 'cannot make a commit durable');
      for (const [i, item] of batch.entries()) {
        const outcome = outcomes[i] as (typeof outcomes)[number];
        if (syncError) {
          item.reject(syncError);
        } else if (outcome.ok) {
          events.deliver(outcome.outbox);
          item.resolve(outcome.value);
        } else {
          item.reject(outcome.value);
        }
      }
      this.checkpointNowAndThen();
    });
  }

  private checkpointNowAndThen(): void {
    const now = performance.now();
    if (now - this.lastCheckpointMs < CHECKPOINT_EVERY_MS || !this.parts.db.open) return;
    this.lastCheckpointMs = now;
    this.parts.checkpointer.request(this.parts.file);
  }
}
