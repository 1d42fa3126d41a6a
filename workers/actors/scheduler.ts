import { doDeliverScheduledMessage } from '../actions/scheduled-delivery';
import type { Clock, TimerHandle } from '../lib/clock';
import type { Logger } from '../lib/log';
import { dueScheduledMessageIds, nextScheduledTimestamp } from '../queries/scheduled-messages';
import type { Realm } from '../realm';

// setTimeout keeps its delay in a signed 32-bit integer and fires at once beyond it (Node
// docs, timers); a far-off delivery waits in steps of this and re-arms on each wake-up.
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;
// After an unexpected error (not a refusal, which marks the row failed), wait before trying
// again, so one bad row cannot spin the shard.
export const RETRY_AFTER_ERROR_MS = 30_000;

/** Background work a realm owns; Realm.close() stops it. */
export interface Actor {
  stop(): void;
}

/**
 * The delivery actor for scheduled messages (SPEC States "Scheduled message"): ONE timer per
 * realm, armed for the earliest pending due time and re-armed after every change (it listens
 * for committed `scheduled_messages` events) and after every delivery round. Messages whose
 * time passed while the server was down go out on the first round, at start.
 */
export class ScheduledMessageSender implements Actor {
  private timer: TimerHandle | null = null;
  private running = false;
  private stopped = false;
  private round: Promise<void> = Promise.resolve();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly realm: Realm,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.unsubscribe = realm.events.subscribe((events) => {
      if (events.some((queued) => queued.event.type === 'scheduled_messages')) this.arm();
    });
  }

  /** Arms the timer for the earliest pending message; a round in progress re-arms when done. */
  arm(minDelayMs = 0): void {
    if (this.stopped || this.running) return;
    this.clearTimer();
    const due = nextScheduledTimestamp(this.realm);
    if (due === null) return;
    const delayMs = Math.min(Math.max(due * 1000 - this.clock.now(), minDelayMs, 0), MAX_TIMER_DELAY_MS);
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.round = this.deliverDue();
    }, delayMs);
  }

  /** Resolves when the current delivery round (if any) is over; for tests. */
  whenIdle(): Promise<void> {
    return this.round;
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
    this.unsubscribe();
  }

  private async deliverDue(): Promise<void> {
    if (this.stopped) return;
    this.running = true;
    let retryLater = false;
    try {
      const nowSeconds = Math.floor(this.clock.now() / 1000);
      for (const id of dueScheduledMessageIds(this.realm, nowSeconds)) {
        if (this.stopped) return;
        try {
          await doDeliverScheduledMessage(this.realm, id, nowSeconds);
        } catch (err) {
          retryLater = true;
          this.log.error({ err, realm: this.realm.name, scheduledMessageId: id }, 'scheduled message delivery failed');
        }
      }
    } finally {
      this.running = false;
    }
    this.arm(retryLater ? RETRY_AFTER_ERROR_MS : 0);
  }

  private clearTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
