import type { Clock, TimerHandle } from '../lib/clock';
import type { Logger } from '../lib/log';
import type { Realm } from '../realm';
import type { Actor } from './scheduler';

/**
 * A realm's periodic chore (retention, unclaimed uploads, presence flushes …): ONE timer per
 * realm, the next run armed only when the previous one is over, so runs never overlap. A failed
 * run is logged and the next one tries again: one failure must not stop the chore for good.
 */
export abstract class PeriodicActor implements Actor {
  private timer: TimerHandle | null = null;
  private running: Promise<void> = Promise.resolve();
  protected stopped = false;

  constructor(
    protected readonly realm: Realm,
    protected readonly clock: Clock,
    private readonly log: Logger,
    private readonly intervalMs: number,
    /** Names the chore in the log line of a failed run. */
    private readonly chore: string,
  ) {}

  /** One run; long runs check `stopped` between their transactions. */
  protected abstract run(): Promise<void>;

  /** Arms the timer for the next run. */
  arm(): void {
    if (this.stopped) return;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.running = this.run()
        .catch((err: unknown) => this.log.error({ err, realm: this.realm.name }, `${this.chore} failed`))
        .finally(() => this.arm());
    }, this.intervalMs);
  }

  /** Resolves when the run under way (if any) is over; for tests. */
  whenIdle(): Promise<void> {
    return this.running;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
