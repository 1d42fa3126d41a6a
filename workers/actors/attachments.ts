import { doDeleteExpiredUploads } from '../actions/attachments';
import type { Clock, TimerHandle } from '../lib/clock';
import type { Logger } from '../lib/log';
import type { Realm } from '../realm';
import type { Actor } from './scheduler';

const BATCH_SIZE = 100;

/**
 * files: deletes uploads that no message claimed within `unclaimedExpiryMs` (SPEC States
 * "Attachment": a few weeks). ONE timer per realm; each sweep deletes batch by batch, each
 * batch its own transaction, then waits `sweepIntervalMs`.
 */
export class UnclaimedUploadActor implements Actor {
  private timer: TimerHandle | null = null;
  private stopped = false;

  constructor(
    private readonly realm: Realm,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  arm(): void {
    if (this.stopped) return;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      void this.sweep().finally(() => this.arm());
    }, this.realm.fileSettings.sweepIntervalMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private async sweep(): Promise<void> {
    try {
      for (;;) {
        if (this.stopped) return;
        const deleted = await doDeleteExpiredUploads(this.realm, this.clock.now(), BATCH_SIZE);
        if (deleted < BATCH_SIZE) return;
      }
    } catch (err) {
      // The next sweep tries again.
      this.log.error({ err, realm: this.realm.name }, 'unclaimed upload sweep failed');
    }
  }
}
