import type { Realm } from '../realm';

/**
 * The version of every table whose rows shards cache (users, groups, streams, emoji,
 * linkifiers, alert words): triggers bump it on each change (migration 1).
 */
export function cacheVersion(realm: Realm): number {
  return realm.cacheVersion();
}

/**
 * A per-realm value built by `build` and kept until cache_version changes: the one way shards
 * cache rows (authentication, the render context, presence).
 *
 * A value built inside a transaction is used but not kept: the action may still roll back,
 * and the next action's change would bring the counter back to the same number, so the
 * rolled-back rows would pass for current.
 */
export function versionedCache<T>(build: (realm: Realm) => T): (realm: Realm) => T {
  const cache = new WeakMap<Realm, { version: number; value: T }>();
  return (realm) => {
    const version = cacheVersion(realm);
    const cached = cache.get(realm);
    if (cached && cached.version === version) return cached.value;
    const value = build(realm);
    if (!realm.db.inTransaction) cache.set(realm, { version, value });
    return value;
  };
}
