import { doDeleteExpiredBatch } from '../actions/retention';
import type { Clock, TimerHandle } from '../lib/clock';
import type { Logger } from '../lib/log';
import type { Realm } from '../realm';
import type { Actor } from './scheduler';

export interface RetentionOptions {
  /** Time between two sweeps. */
  intervalMs: number;
  /** Messages deleted per transaction, so a large backlog never holds the realm for long. */
  batchSize: number;
}

/**
 * Enforces message retention (SPEC Stream message_retention_days): ONE timer per realm; each
 * sweep deletes expired messages batch by batch, each batch its own transaction, until a batch
 * comes back short, then waits `intervalMs` for the next sweep.
 */
export class RetentionActor implements Actor {
  private timer: TimerHandle | null = null;
  private stopped = false;
  private sweeping: Promise<void> = Promise.resolve();

  constructor(
    private readonly realm: Realm,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly options: RetentionOptions,
  ) {}

  /** Arms the timer for the next sweep. */
  arm(): void {
    if (this.stopped) return;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.sweeping = this.sweep().finally(() => this.arm());
    }, this.options.intervalMs);
  }

  /** Resolves when the current sweep (if any) is over; for tests. */
  whenIdle(): Promise<void> {
    return this.sweeping;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private async sweep(): Promise<void> {
    try {
      const nowSeconds = Math.floor(this.clock.now() / 1000);
      for (;;) {
        if (this.stopped) return;
        const deleted = await doDeleteExpiredBatch(this.realm, nowSeconds, this.options.batchSize);
        if (deleted < this.options.batchSize) return;
      }
    } catch (err) {
      // The next sweep tries again; one failure must not stop retention for good.
      this.log.error({ err, realm: this.realm.name }, 'retention sweep failed');
    }
  }
}
