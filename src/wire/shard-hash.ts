/**
 * FNV-1a: a stable realm → shard assignment that survives restarts. Here in src/wire/ because
 * both sides need it: the front end routes requests with it, and a shard uses it at start to
 * find the realm files it owns (their scheduled messages must go out without a request).
 */
export function shardIndexFor(realm: string, shardCount: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < realm.length; i++) {
    hash ^= realm.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shardCount;
}
