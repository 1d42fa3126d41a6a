import type { Realm } from '../realm';
import type { MessageRow } from './messages';
import { streamById, subscriberIds } from './streams';
import { ALL_USER_MESSAGES } from './user-message-rows';

/** Users with a per-user row for the message (each table's index by message). */
export function userIdsWithMessage(realm: Realm, messageId: number): number[] {
  const rows = realm.rows<{ user_id: number }, [number]>(`SELECT user_id FROM ${ALL_USER_MESSAGES} WHERE message_id = ?`).all(messageId);
  return rows.map((r) => r.user_id);
}

/**
 * Who hears about a change to a message (reactions, edits): everyone with a row for it, plus the
 * current subscribers of its stream when the stream's history is public to them (api-notes §d
 * `reaction`).
 */
export function messageUpdateAudience(realm: Realm, message: MessageRow): number[] {
  const audience = new Set(userIdsWithMessage(realm, message.id));
  if (message.stream_id !== null) {
    const stream = streamById(realm, message.stream_id);
    if (stream?.history_public_to_subscribers) for (const id of subscriberIds(realm, stream.id)) audience.add(id);
  }
  return [...audience];
}
