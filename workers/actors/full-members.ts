import { doSyncFullMembers } from '../actions/full-members';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/log';
import type { Realm } from '../realm';
import { PeriodicActor } from './periodic';

/**
 * Every `intervalMs` (a day by default, as the public server's daily promotion), members whose
 * account has passed the realm's waiting period since join `@role:fullmembers`, in ONE
 * transaction with its add_members event.
 */
export class FullMembersActor extends PeriodicActor {
  constructor(realm: Realm, clock: Clock, log: Logger, intervalMs: number) {
    super(realm, clock, log, intervalMs, 'full members promotion');
  }

  protected async run(): Promise<void> {
    await doSyncFullMembers(this.realm);
  }
}
