import { pruneSnapshots, writeSnapshot } from '../db/snapshot';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/log';
import type { Realm } from '../realm';
import { PeriodicActor } from './periodic';

/** The shard's count of periodic snapshots, reported in its stats (src/metrics/). */
export interface SnapshotTally {
  written: number;
  failed: number;
}

/**
 * Copies its realm's file into `dir` every `intervalMs` (BACKUP_INTERVAL) and keeps the newest
 * `keep` copies (BACKUP_KEEP). The copy is the shard's own work, by the thread that owns the
 * file, paged so that requests are served between its steps (workers/db/snapshot.ts).
 */
export class SnapshotActor extends PeriodicActor {
  constructor(
    realm: Realm,
    clock: Clock,
    private readonly logger: Logger,
    intervalMs: number,
    private readonly dir: string,
    private readonly keep: number,
    private readonly tally: SnapshotTally,
  ) {
    super(realm, clock, logger, intervalMs, 'snapshot');
  }

  protected async run(): Promise<void> {
    try {
      const file = await writeSnapshot(this.realm.db, this.dir, new Date(this.clock.now()));
      this.tally.written++;
      this.logger.debug({ realm: this.realm.name, file }, 'snapshot written');
    } catch (err) {
      // A copy cut short by a graceful stop (the realm closed its file) is no failure.
      if (this.stopped) return;
      this.tally.failed++;
      throw err;
    }
    await pruneSnapshots(this.dir, this.keep);
  }
}
