import { doDeleteExpiredUploads } from '../actions/attachments';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/log';
import type { Realm } from '../realm';
import { PeriodicActor } from './periodic';

const BATCH_SIZE = 100;

/**
 * Deletes uploads that no message claimed within `unclaimedExpiryMs` (SPEC States "Attachment":
 * a few weeks): every `sweepIntervalMs`, batch by batch, each batch its own transaction.
 */
export class UnclaimedUploadActor extends PeriodicActor {
  constructor(realm: Realm, clock: Clock, log: Logger) {
    super(realm, clock, log, realm.fileSettings.sweepIntervalMs, 'unclaimed upload sweep');
  }

  protected async run(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const deleted = await doDeleteExpiredUploads(this.realm, this.clock.now(), BATCH_SIZE);
      if (deleted < BATCH_SIZE) return;
    }
  }
}
