import { ROLE } from '../lib/roles';
import type { Realm } from '../realm';
import { streamObject, type StreamRow } from './streams';

/** The realm's default streams as stream objects without `is_default` (SPEC POST /register). */
export function defaultStreamObjects(realm: Realm): Record<string, unknown>[] {
  const rows = realm.stmt('SELECT * FROM streams WHERE is_default = 1 AND deactivated = 0 ORDER BY id').all() as StreamRow[];
  return rows.map((row) => streamObject(row));
}

/** Who receives `default_streams` events: active users but guests, who see none (api-notes §e). */
export function nonGuestUserIds(realm: Realm): number[] {
  return (realm.stmt(`SELECT id FROM users WHERE is_active = 1 AND role != ${ROLE.GUEST}`).all() as { id: number }[]).map((r) => r.id);
}
