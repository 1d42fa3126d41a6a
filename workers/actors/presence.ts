import { doFlushPresence, flushPresenceNow } from '../actions/presence';
import type { Clock, TimerHandle } from '../lib/clock';
import type { Logger } from '../lib/log';
import type { Realm } from '../realm';
import type { Actor } from './scheduler';

/**
 * org: writes the presence the shard keeps in memory (realm.presence) to the realm file every
 * `intervalMs`, ONE transaction for every user pinged since the last flush, and once more on a
 * graceful stop, so presence survives a restart.
 */
export class PresenceFlusher implements Actor {
  private timer: TimerHandle | null = null;
  private stopped = false;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly realm: Realm,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly intervalMs: number,
  ) {}

  arm(): void {
    if (this.stopped) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.flushing = doFlushPresence(this.realm)
        // The next flush tries again (the users stay in memory); one failure must not stop them.
        .catch((err: unknown) => this.log.error({ err, realm: this.realm.name }, 'presence flush failed'))
        .finally(() => this.arm());
    }, this.intervalMs);
  }

  /** Resolves when the flush under way (if any) has committed; for tests. */
  whenIdle(): Promise<void> {
    return this.flushing;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    flushPresenceNow(this.realm);
  }
}
