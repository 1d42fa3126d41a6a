import { doDeleteExpiredBatch } from '../actions/retention';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/log';
import type { Realm } from '../realm';
import { PeriodicActor } from './periodic';

export interface RetentionOptions {
  /** Time between two sweeps. */
  intervalMs: number;
  /** Messages deleted per transaction, so a large backlog never holds the realm for long. */
  batchSize: number;
}

/**
 * Enforces message retention (SPEC Stream message_retention_days): every `intervalMs`, expired
 * messages are deleted batch by batch, each batch its own transaction, until a batch comes back
 * short.
 */
export class RetentionActor extends PeriodicActor {
  constructor(
    realm: Realm,
    clock: Clock,
    log: Logger,
    private readonly options: RetentionOptions,
  ) {
    super(realm, clock, log, options.intervalMs, 'retention sweep');
  }

  protected async run(): Promise<void> {
    const nowSeconds = Math.floor(this.clock.now() / 1000);
    for (;;) {
      if (this.stopped) return;
      const deleted = await doDeleteExpiredBatch(this.realm, nowSeconds, this.options.batchSize);
      if (deleted < this.options.batchSize) return;
    }
  }
}
