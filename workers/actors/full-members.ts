import { doSyncFullMembers } from '../actions/full-members';
import type { Clock, TimerHandle } from '../lib/clock';
import type { Logger } from '../lib/log';
import type { Realm } from '../realm';
import type { Actor } from './scheduler';

/**
 * fullmembers: every `intervalMs` (a day by default, as the public server's daily promotion),
 * members whose account has passed the realm's waiting period since join `@role:fullmembers`,
 * in ONE transaction with its add_members event.
 */
export class FullMembersActor implements Actor {
  private timer: TimerHandle | null = null;
  private stopped = false;

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
      doSyncFullMembers(this.realm)
        // The next run tries again; one failure must not stop them.
        .catch((err: unknown) => this.log.error({ err, realm: this.realm.name }, 'full members promotion failed'))
        .finally(() => this.arm());
    }, this.intervalMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
