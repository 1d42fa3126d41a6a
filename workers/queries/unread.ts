import { FLAG_BIT } from '../lib/flags';
import type { Realm } from '../realm';
import { messageById, userFlags } from './messages';
import { ALL_USER_MESSAGES, hasRowParams, hasRowSql } from './user-message-rows';

const MENTION_BITS = FLAG_BIT.mentioned | FLAG_BIT.wildcard_mentioned;

/**
 * `message_details` of an `update_message_flags` remove/read event (api-notes §d): what a client
 * needs to put the messages back into its unread counts. `user_ids` excludes the user (empty for
 * a message to oneself); `unmuted_stream_msg` reflects the stream's mute state.
 */
export function unreadMessageDetails(realm: Realm, userId: number, messageIds: readonly number[]): Record<string, UnreadMessageDetail> {
  const details: Record<string, UnreadMessageDetail> = {};
  for (const id of messageIds) {
    const message = messageById(realm, id);
    if (!message) continue;
    const flags = userFlags(realm, userId, id) ?? 0;
    let entry: UnreadMessageDetail;
    if (message.stream_id !== null) {
      const sub = realm
        .rows<{ is_muted: number }, [number, number]>(
          'SELECT is_muted FROM subscriptions WHERE user_id = ? AND stream_id = ? AND active = 1',
        )
        .get(userId, message.stream_id);
      const unmuted = sub?.is_muted === 0;
      entry = { type: 'stream', stream_id: message.stream_id, topic: message.topic, unmuted_stream_msg: unmuted };
    } else {
      const row = realm.rows<{ direct_key: string }, [number]>('SELECT direct_key FROM recipients WHERE id = ?').get(message.recipient_id);
      const members = (row?.direct_key ?? '')
        .split(',')
        .map(Number)
        .filter((member) => member !== userId);
      entry = { type: 'private', user_ids: members.sort((a, b) => a - b) };
    }
    if ((flags & MENTION_BITS) !== 0) entry.mentioned = true;
    details[String(id)] = entry;
  }
  return details;
}

/**
 * The user's unread message IDs, optionally of one stream (by recipient) and topic. The
 * `flags & 1 = 0` term matches the partial index user_messages_unread, so only unread rows are
 * visited (read is bit 1, workers/lib/flags.ts); the index holds the flags, so the planner
 * picks it by itself (migration 17).
 */
export function unreadMessageIds(realm: Realm, userId: number, where: { recipientId?: number; topic?: string }): number[] {
  let rows: { message_id: number }[];
  if (where.recipientId === undefined) {
    rows = realm.rows<{ message_id: number }, [number]>(UNREAD_IDS).all(userId);
  } else {
    rows = realm
      .rows<{ message_id: number }, [number, number, string | null, string | null]>(UNREAD_IDS_IN_CONVERSATION)
      .all(userId, where.recipientId, where.topic ?? null, where.topic ?? null);
  }
  return rows.map((r) => r.message_id);
}

// Exported for the query-plan test. Parameters: the user.
export const UNREAD_IDS = `SELECT message_id FROM ${ALL_USER_MESSAGES} WHERE user_id = ? AND flags & 1 = 0 ORDER BY message_id`;
// Parameters: the user, the recipient, the topic (or null) twice.
export const UNREAD_IDS_IN_CONVERSATION = `SELECT um.message_id FROM ${ALL_USER_MESSAGES} um JOIN messages m ON m.id = um.message_id
  WHERE um.user_id = ? AND um.flags & 1 = 0 AND m.recipient_id = ? AND (? IS NULL OR m.topic = ? COLLATE NOCASE)
  ORDER BY um.message_id`;

/** One message's entry of update_message_flags' `message_details` (api-notes §d). */
export interface UnreadMessageDetail {
  type: 'stream' | 'private';
  stream_id?: number;
  topic?: string;
  unmuted_stream_msg?: boolean;
  user_ids?: number[];
  mentioned?: boolean;
}

/** Has the user a message in this topic? (index messages_stream_topic, then the user's row by key) */
export function hasMessageInTopic(realm: Realm, userId: number, streamId: number, topic: string): boolean {
  return (
    realm
      .stmt(
        `SELECT 1 FROM messages m INDEXED BY messages_stream_topic
         WHERE m.stream_id = ? AND m.topic = ? COLLATE NOCASE AND ${hasRowSql('m.id')} LIMIT 1`,
      )
      .get(streamId, topic, ...hasRowParams(userId)) !== undefined
  );
}
