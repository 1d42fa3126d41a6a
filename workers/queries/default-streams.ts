import { ROLE } from '../lib/roles';
import type { Realm } from '../realm';
import { streamObject, type StreamRow } from './streams';
import type { StreamObject } from '../schemas/objects';

/** The realm's default streams as stream objects without `is_default` (SPEC POST /register). */
export function defaultStreamObjects(realm: Realm): StreamObject[] {
  const rows = realm.rows<StreamRow, []>('SELECT * FROM streams WHERE is_default = 1 AND deactivated = 0 ORDER BY id').all();
  return rows.map((row) => streamObject(row));
}

/** Who receives `default_streams` events: active users but guests, who see none (api-notes §e). */
export function nonGuestUserIds(realm: Realm): number[] {
  return realm
    .rows<{ id: number }, []>(`SELECT id FROM users WHERE is_active = 1 AND role != ${ROLE.GUEST}`)
    .all()
    .map((r) => r.id);
}

export interface DefaultStreamGroupRow {
  id: number;
  name: string;
  description: string;
}

export function defaultStreamGroupById(realm: Realm, id: number): DefaultStreamGroupRow | undefined {
  return realm.rows<DefaultStreamGroupRow, [number]>('SELECT id, name, description FROM default_stream_groups WHERE id = ?').get(id);
}

export function defaultStreamGroupByName(realm: Realm, name: string): DefaultStreamGroupRow | undefined {
  return realm
    .rows<DefaultStreamGroupRow, [string]>('SELECT id, name, description FROM default_stream_groups WHERE name = ? COLLATE NOCASE')
    .get(name);
}

export function groupStreamIds(realm: Realm, groupId: number): number[] {
  return realm
    .rows<{ stream_id: number }, [number]>('SELECT stream_id FROM default_stream_group_streams WHERE group_id = ?')
    .all(groupId)
    .map((r) => r.stream_id);
}

/** register's `realm_default_stream_groups` and the event's list (openapi DefaultStreamGroup), by name. */
export function defaultStreamGroupObjects(realm: Realm): { name: string; id: number; description: string; streams: StreamObject[] }[] {
  const groups = realm.rows<DefaultStreamGroupRow, []>('SELECT id, name, description FROM default_stream_groups ORDER BY name').all();
  const streamsOf = realm.rows<StreamRow, [number]>(
    `SELECT s.* FROM default_stream_group_streams g JOIN streams s ON s.id = g.stream_id
     WHERE g.group_id = ? AND s.deactivated = 0 ORDER BY s.id`,
  );
  return groups.map((group) => ({
    name: group.name,
    id: group.id,
    description: group.description,
    streams: streamsOf.all(group.id).map((row) => streamObject(row)),
  }));
}
