import type { Realm } from '../realm';
import { sqlLimit } from '../lib/sql-limit';

/** api-notes §e: register lists at most this many drafts. */
export const MAX_DRAFTS_IN_REGISTER = 1000;

export interface DraftRow {
  id: number;
  user_id: number;
  type: string;
  to_ids: string;
  topic: string;
  content: string;
  last_edit_time: number;
}

export interface DraftObject {
  id: number;
  type: 'stream' | 'private' | '';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

export function draftObject(row: DraftRow): DraftObject {
  return {
    id: row.id,
    type: row.type as DraftObject['type'],
    to: JSON.parse(row.to_ids) as number[],
    topic: row.topic,
    content: row.content,
    timestamp: row.last_edit_time,
  };
}

/** The user's drafts, most recently edited first (openapi get-drafts). */
export function draftsOf(realm: Realm, userId: number, limit = -1): DraftObject[] {
  const rows = realm
    .rows<DraftRow, [number]>(
      `SELECT id, user_id, type, to_ids, topic, content, last_edit_time FROM drafts WHERE user_id = ? ORDER BY last_edit_time DESC, id DESC ${sqlLimit(limit)}`,
    )
    .all(userId);
  return rows.map(draftObject);
}

export function draftOf(realm: Realm, userId: number, draftId: number): DraftRow | undefined {
  return realm
    .rows<DraftRow, [number, number]>(
      'SELECT id, user_id, type, to_ids, topic, content, last_edit_time FROM drafts WHERE id = ? AND user_id = ?',
    )
    .get(draftId, userId);
}
