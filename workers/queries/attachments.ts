/**
 * Uploaded files (SPEC States "Attachment", api-notes GET /attachments, POST /user_uploads):
 * their rows, their bytes (chunks inside the realm file) and who may read them.
 */
import { sqlLimit } from '../lib/sql-limit';
import type { Realm } from '../realm';
import { accessMessage } from './messages';
import { spectatorAccessEnabled } from './realm-settings';
import type { UserRow } from './users';
import type { z } from 'zod';
import type { attachmentObjectSchema } from '../events/realm-payloads';

export interface AttachmentRow {
  id: number;
  path_id: string;
  name: string;
  content_type: string;
  size: number;
  owner_id: number;
  create_time: number;
}

/** Bytes per stored chunk: a range request reads only the chunks it overlaps. */
export const CHUNK_BYTES = 1024 * 1024;

const COLUMNS = 'id, path_id, name, content_type, size, owner_id, create_time';

export function attachmentById(realm: Realm, id: number): AttachmentRow | undefined {
  return realm.rows<AttachmentRow, [number]>(`SELECT ${COLUMNS} FROM attachments WHERE id = ?`).get(id);
}

export function attachmentByPath(realm: Realm, pathId: string): AttachmentRow | undefined {
  return realm.rows<AttachmentRow, [string]>(`SELECT ${COLUMNS} FROM attachments WHERE path_id = ?`).get(pathId);
}

/** Bytes used by every upload of the realm (api-notes GET /attachments `upload_space_used`). */
export function uploadSpaceUsed(realm: Realm): number {
  return realm.oneRow<{ used: number }>('SELECT coalesce(sum(size), 0) AS used FROM attachments').used;
}

/** The attachment object of GET /attachments and the `attachment` event (api-notes §d). */
export function attachmentObject(realm: Realm, row: AttachmentRow): z.input<typeof attachmentObjectSchema> {
  const messages = realm
    .rows<{ id: number; date_sent: number }, [number]>(
      `SELECT m.id, m.date_sent FROM attachment_messages am JOIN messages m ON m.id = am.message_id
       WHERE am.attachment_id = ? ORDER BY m.id`,
    )
    .all(row.id);
  return {
    id: row.id,
    name: row.name,
    path_id: row.path_id,
    size: row.size,
    create_time: row.create_time,
    // milliseconds, like create_time (api-notes Summary 17)
    messages: messages.map((m) => ({ id: m.id, date_sent: m.date_sent * 1000 })),
  };
}

export function ownAttachments(realm: Realm, userId: number): AttachmentRow[] {
  return realm.rows<AttachmentRow, [number]>(`SELECT ${COLUMNS} FROM attachments WHERE owner_id = ? ORDER BY id`).all(userId);
}

/** Ids of the attachments that these messages link. */
export function attachmentIdsOfMessages(realm: Realm, messageIds: readonly number[]): number[] {
  const select = realm.rows<{ attachment_id: number }, [number]>('SELECT attachment_id FROM attachment_messages WHERE message_id = ?');
  const ids = new Set<number>();
  for (const messageId of messageIds) for (const row of select.all(messageId)) ids.add(row.attachment_id);
  return [...ids];
}

export function isLinked(realm: Realm, attachmentId: number): boolean {
  return realm.stmt('SELECT 1 FROM attachment_messages WHERE attachment_id = ? LIMIT 1').get(attachmentId) !== undefined;
}

/**
 * Who may fetch an upload (api-notes POST /user_uploads): its uploader, and anyone who can see
 * a message linking it; a spectator (null) only through a web-public stream's message when the
 * realm admits spectators.
 */
export function canReadAttachment(realm: Realm, user: UserRow | null, row: AttachmentRow): boolean {
  if (user && user.id === row.owner_id) return true;
  const linking = realm
    .rows<{ message_id: number }, [number]>('SELECT message_id FROM attachment_messages WHERE attachment_id = ?')
    .all(row.id);
  for (const { message_id } of linking) {
    if (user) {
      try {
        accessMessage(realm, user, message_id);
        return true;
      } catch {
        continue;
      }
    }
    const onWebPublic = realm
      .stmt('SELECT 1 FROM messages m JOIN streams s ON s.id = m.stream_id WHERE m.id = ? AND s.is_web_public = 1')
      .get(message_id);
    if (onWebPublic && realm.webPublicStreamsEnabled && spectatorAccessEnabled(realm)) return true;
  }
  return false;
}

/** Bytes [start, end) of an upload, reading only the chunks they overlap. */
export function readAttachmentBytes(realm: Realm, id: number, start: number, end: number): Uint8Array {
  const out = new Uint8Array(Math.max(0, end - start));
  if (out.length === 0) return out;
  const first = Math.floor(start / CHUNK_BYTES);
  const last = Math.floor((end - 1) / CHUNK_BYTES);
  const chunks = realm
    .rows<{ seq: number; data: Buffer }, [number, number, number]>(
      'SELECT seq, data FROM attachment_chunks WHERE attachment_id = ? AND seq BETWEEN ? AND ? ORDER BY seq',
    )
    .all(id, first, last);
  for (const chunk of chunks) {
    const chunkStart = chunk.seq * CHUNK_BYTES;
    const from = Math.max(start, chunkStart);
    const to = Math.min(end, chunkStart + chunk.data.length);
    if (to > from) out.set(chunk.data.subarray(from - chunkStart, to - chunkStart), from - start);
  }
  return out;
}

/** Unclaimed uploads created before `cutoffMs` (SPEC States: deleted after a few weeks). */
export function expiredUnclaimed(realm: Realm, cutoffMs: number, limit: number): AttachmentRow[] {
  return realm
    .rows<AttachmentRow, [number]>(
      `SELECT ${COLUMNS} FROM attachments a WHERE create_time < ?
       AND NOT EXISTS (SELECT 1 FROM attachment_messages am WHERE am.attachment_id = a.id) ORDER BY create_time ${sqlLimit(limit)}`,
    )
    .all(cutoffMs);
}

/** An avatar or emoji image stored in the realm file. */
export function imageByKey(realm: Realm, key: string): { content_type: string; data: Buffer } | undefined {
  return realm.rows<{ content_type: string; data: Buffer }, [string]>('SELECT content_type, data FROM images WHERE key = ?').get(key);
}
