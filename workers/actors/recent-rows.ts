import { doMoveRecentRowsThrough, RECENT_ROWS_PER_BATCH } from '../actions/recent-rows';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/log';
import type { Realm } from '../realm';
import { PeriodicActor } from './periodic';
import { newestMessageId } from '../queries/messages';

/**
 * Moves the rows of messages to many people from user_messages_recent into user_messages (migration 21)
 * every `intervalMs`, batch by batch, each batch its own transaction, so requests run between
 * them. A run moves the rows of messages that were already there when the run before it
 * began: each row stays at least one interval where marking it read touches the small table's
 * pages, not the person's own page.
 */
export class RecentRowsMover extends PeriodicActor {
  private throughMessageId: number;

  constructor(realm: Realm, clock: Clock, log: Logger, intervalMs: number) {
    super(realm, clock, log, intervalMs, 'moving recent message rows');
    this.throughMessageId = newestMessageId(realm);
  }

  protected async run(): Promise<void> {
    const through = this.throughMessageId;
    this.throughMessageId = newestMessageId(this.realm);
    await doMoveRecentRowsThrough(this.realm, through, RECENT_ROWS_PER_BATCH, () => !this.stopped);
  }
}
