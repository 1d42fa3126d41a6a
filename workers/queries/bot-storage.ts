import type { Realm } from '../realm';

/** The public server's USER_STATE_SIZE_LIMIT: all of one bot's keys and values, in characters. */
export const BOT_STORAGE_LIMIT_CHARS = 10_000_000;

/** A bot's entries, for `keys` in their order or, without them, every key in the order stored; null when a key is missing. */
export function botStorageEntries(realm: Realm, botId: number, keys: readonly string[] | undefined): Record<string, string> | null {
  const storage: Record<string, string> = {};
  if (keys === undefined) {
    const rows = realm
      .rows<{ key: string; value: string }, [number]>('SELECT key, value FROM bot_storage WHERE bot_id = ? ORDER BY id')
      .all(botId);
    for (const row of rows) storage[row.key] = row.value;
    return storage;
  }
  // Plucked: each row is its one column's value.
  const lookUp = realm.rows<string, [number, string]>('SELECT value FROM bot_storage WHERE bot_id = ? AND key = ?').pluck();
  for (const key of keys) {
    const value = lookUp.get(botId, key);
    if (value === undefined) return null;
    storage[key] = value;
  }
  return storage;
}

/** Characters a bot's storage holds (keys and values), or one entry of it (0 when absent). */
export function botStorageSize(realm: Realm, botId: number, key?: string): number {
  if (key === undefined) {
    return (
      realm
        .rows<number, [number]>('SELECT coalesce(sum(length(key) + length(value)), 0) FROM bot_storage WHERE bot_id = ?')
        .pluck()
        .get(botId) ?? 0
    );
  }
  const size = realm.stmt('SELECT length(key) + length(value) FROM bot_storage WHERE bot_id = ? AND key = ?').pluck().get(botId, key);
  return typeof size === 'number' ? size : 0;
}
