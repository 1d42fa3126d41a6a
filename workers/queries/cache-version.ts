import type { Realm } from '../realm';

/**
 * The version of every table whose rows shards cache (users, groups, streams, emoji,
 * linkifiers, alert words): triggers bump it on each change (migration 1).
 */
export function cacheVersion(realm: Realm): number {
  return (realm.stmt('SELECT version FROM cache_version WHERE id = 1').get() as { version: number }).version;
}
