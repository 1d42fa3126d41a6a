import { storedRow } from '../lib/stored-row';
import type { Realm } from '../realm';
import type { z } from 'zod';
import type { scheduledMessageSchema } from '../events/realm-payloads';

/** recipients.kind values (migration 1), reused by scheduled_messages.recipient_kind. */
export const RECIPIENT_KIND = { STREAM: 2, DIRECT: 3 } as const;

export interface ScheduledMessageRow {
  id: number;
  sender_id: number;
  recipient_kind: number;
  stream_id: number | null;
  direct_to: string | null;
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_timestamp: number;
  client: string;
  date_created: number;
  delivered: number;
  delivered_message_id: number | null;
  failed: number;
  failure_message: string | null;
}

export function scheduledMessageById(realm: Realm, id: number): ScheduledMessageRow | undefined {
  return realm.rows<ScheduledMessageRow, [number]>('SELECT * FROM scheduled_messages WHERE id = ?').get(id);
}

/** A scheduled message the caller knows exists (read again inside its own transaction). */
export function storedScheduledMessage(realm: Realm, id: number): ScheduledMessageRow {
  return storedRow(scheduledMessageById(realm, id), `scheduled message ${id}`);
}

/** The sender's undelivered scheduled messages, failed ones included, by due time (api-notes §b). */
export function pendingScheduledMessagesOf(realm: Realm, senderId: number): ScheduledMessageRow[] {
  return realm
    .rows<ScheduledMessageRow, [number]>(
      'SELECT * FROM scheduled_messages WHERE sender_id = ? AND delivered = 0 ORDER BY scheduled_timestamp, id',
    )
    .all(senderId);
}

/** The earliest due time (UNIX seconds) of a message still to send, or null. Uses scheduled_messages_due. */
export function nextScheduledTimestamp(realm: Realm): number | null {
  return realm.oneRow<{ due: number | null }>(
    'SELECT min(scheduled_timestamp) AS due FROM scheduled_messages WHERE delivered = 0 AND failed = 0',
  ).due;
}

/** IDs of the messages due at `nowSeconds`, oldest first. Uses scheduled_messages_due. */
export function dueScheduledMessageIds(realm: Realm, nowSeconds: number): number[] {
  const rows = realm
    .rows<{ id: number }, [number]>(
      `SELECT id FROM scheduled_messages WHERE delivered = 0 AND failed = 0 AND scheduled_timestamp <= ?
       ORDER BY scheduled_timestamp, id`,
    )
    .all(nowSeconds);
  return rows.map((row) => row.id);
}

/** The API's scheduled message object (openapi ScheduledMessage; api-notes §d). */
export function scheduledMessageObject(row: ScheduledMessageRow): z.input<typeof scheduledMessageSchema> {
  const isStream = row.recipient_kind === RECIPIENT_KIND.STREAM;
  // Keys in the order the public API writes them: the topic between `to` and `content`.
  return {
    scheduled_message_id: row.id,
    type: isStream ? 'stream' : 'private',
    to: isStream ? (row.stream_id as number) : (JSON.parse(row.direct_to ?? '[]') as number[]),
    ...(isStream ? { topic: row.topic } : {}),
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: row.scheduled_timestamp,
    failed: row.failed === 1,
  };
}
