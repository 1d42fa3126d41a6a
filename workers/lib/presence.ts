/**
 * The realm's presence, kept in memory by the shard (issue 9 "Presence": not a write per
 * ping). Times are UNIX seconds: the last ping, and the last ping that said `active`. Changed
 * users are marked dirty until the presence actor flushes them to the `user_presence` table.
 */
export interface PresenceTimes {
  lastConnected: number;
  lastActive: number | null;
}

export class PresenceTable {
  private readonly times = new Map<number, PresenceTimes>();
  private readonly dirty = new Set<number>();
  private readonly watchers: Set<number>[] = [];

  /** At open: what the last flush stored. */
  load(rows: readonly { user_id: number; last_connected_time: number; last_active_time: number | null }[]): void {
    for (const row of rows) this.times.set(row.user_id, { lastConnected: row.last_connected_time, lastActive: row.last_active_time });
  }

  get(userId: number): PresenceTimes | undefined {
    return this.times.get(userId);
  }

  entries(): IterableIterator<[number, PresenceTimes]> {
    return this.times.entries();
  }

  /** Records a ping; returns the times before it. */
  record(userId: number, nowSeconds: number, active: boolean): PresenceTimes | undefined {
    const before = this.times.get(userId);
    const lastActive = active ? nowSeconds : (before?.lastActive ?? null);
    this.times.set(userId, { lastConnected: nowSeconds, lastActive });
    this.dirty.add(userId);
    for (const changed of this.watchers) changed.add(userId);
    return before;
  }

  /**
   * A set that every later ping adds its user to, for a view kept current by its changes
   * (queries/presence.ts); the watcher clears it as it catches up.
   */
  watch(): Set<number> {
    const changed = new Set<number>();
    this.watchers.push(changed);
    return changed;
  }

  /** Marks users to flush again (their flush failed). */
  markDirty(userIds: readonly number[]): void {
    for (const userId of userIds) this.dirty.add(userId);
  }

  /** The users changed since the last call, with their times; clears the mark. */
  takeDirty(): [number, PresenceTimes][] {
    const changed: [number, PresenceTimes][] = [];
    for (const userId of this.dirty) {
      const times = this.times.get(userId);
      if (times) changed.push([userId, times]);
    }
    this.dirty.clear();
    return changed;
  }
}
