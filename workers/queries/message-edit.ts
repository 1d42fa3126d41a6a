import type { Realm } from '../realm';
import type { UserRow } from './users';
import { ALL_USER_MESSAGES, hasRowParams, hasRowSql } from './user-message-rows';

/** A message of a topic, as the move and time-limit rules need it. */
export interface TopicMessage {
  id: number;
  date_sent: number;
}

/**
 * The messages of a topic (topics compare case-insensitively), oldest first; with `onlyFor`,
 * only those that user received (a stream with protected history: SPEC PATCH
 * /messages/{message_id}). Both walk the messages_stream_topic index.
 */
export function topicMessages(realm: Realm, streamId: number, topic: string, onlyFor: UserRow | null): TopicMessage[] {
  if (onlyFor === null) {
    return realm
      .rows<TopicMessage, [number, string]>(
        'SELECT id, date_sent FROM messages WHERE stream_id = ? AND topic = ? COLLATE NOCASE ORDER BY id',
      )
      .all(streamId, topic);
  }
  return realm
    .rows<TopicMessage, [number, string, number, number]>(
      `SELECT m.id, m.date_sent FROM messages m
       WHERE m.stream_id = ? AND m.topic = ? COLLATE NOCASE AND ${hasRowSql('m.id')} ORDER BY m.id`,
    )
    .all(streamId, topic, ...hasRowParams(onlyFor.id));
}

/** The oldest message of a stream, or null: SPEC Stream.first_message_id (messages_recipient index). */
export function firstStreamMessageId(realm: Realm, recipientId: number): number | null {
  return realm.oneRow<{ id: number | null }, [number]>('SELECT min(id) AS id FROM messages WHERE recipient_id = ?', recipientId).id;
}

/** Users with a per-user row for the message, with their flag bits. */
export function messageRecipientFlags(realm: Realm, messageId: number): Map<number, number> {
  const rows = realm
    .rows<{ user_id: number; flags: number }, [number]>(`SELECT user_id, flags FROM ${ALL_USER_MESSAGES} WHERE message_id = ?`)
    .all(messageId);
  return new Map(rows.map((r) => [r.user_id, r.flags]));
}

/** Active subscribers of a stream, deactivated users included (they keep their rows). */
export function allSubscriberIds(realm: Realm, streamId: number): number[] {
  const rows = realm
    .rows<{ id: number }, [number]>('SELECT user_id AS id FROM subscriptions WHERE stream_id = ? AND active = 1')
    .all(streamId);
  return rows.map((r) => r.id);
}
