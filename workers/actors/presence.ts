import { doFlushPresence, flushPresenceNow } from '../actions/presence';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/log';
import type { Realm } from '../realm';
import { PeriodicActor } from './periodic';

/**
 * Writes the presence the shard keeps in memory (realm.presence) to the realm file every
 * `intervalMs`, ONE transaction for every user pinged since the last flush, and once more on a
 * graceful stop, so presence survives a restart. A failed flush keeps its users in memory.
 */
export class PresenceFlusher extends PeriodicActor {
  constructor(realm: Realm, clock: Clock, log: Logger, intervalMs: number) {
    super(realm, clock, log, intervalMs, 'presence flush');
  }

  protected run(): Promise<void> {
    return doFlushPresence(this.realm);
  }

  override stop(): void {
    super.stop();
    flushPresenceNow(this.realm);
  }
}
