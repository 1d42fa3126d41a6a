import { FLAG_BIT } from '../lib/flags';
import { sqlLimit } from '../lib/sql-limit';
import type { Realm } from '../realm';
import { alertWordsOf } from './alert-words';
import { MAX_DRAFTS_IN_REGISTER, draftsOf } from './drafts';
import type { Wants } from './register-realm';
import { pendingScheduledMessagesOf, scheduledMessageObject } from './scheduled-messages';
import { maxMessageId, type UserRow } from './users';
import { mutedTopicsOf, userTopicsOf } from './user-topics';
import type { RegisterState } from '../schemas/register';
import { ALL_USER_MESSAGES } from './user-message-rows';

// api-notes §e: unread_msgs covers the newest 50000 unread messages.
const UNREAD_CAP = 50000;
// The real server reads recent conversations from the user's newest messages only.
const RECENT_CONVERSATION_WINDOW = 1000;
const MENTION_BITS = FLAG_BIT.mentioned | FLAG_BIT.wildcard_mentioned;

interface UnreadRow {
  id: number;
  flags: number;
  stream_id: number | null;
  topic: string;
  direct_key: string | null;
}

/**
 * Parameters: the user. Exported for the query-plan test. user_messages_unread
 * visits only unread rows (read is bit 1, workers/lib/flags.ts); the planner picks it by
 * itself, as it holds the flags too (migration 17).
 */
export const UNREAD_STATE = `SELECT um.message_id AS id, um.flags, m.stream_id, m.topic, r.direct_key
  FROM ${ALL_USER_MESSAGES} um
  JOIN messages m ON m.id = um.message_id JOIN recipients r ON r.id = m.recipient_id
  WHERE um.user_id = ? AND um.flags & 1 = 0 ORDER BY um.message_id DESC ${sqlLimit(UNREAD_CAP + 1)}`;

/** `unread_msgs` (api-notes §e): the user's unread messages grouped by conversation. */
export function unreadState(realm: Realm, userId: number): NonNullable<RegisterState['unread_msgs']> {
  const rows = realm.rows<UnreadRow, [number]>(UNREAD_STATE).all(userId);
  const oldUnreadsMissing = rows.length > UNREAD_CAP;
  const kept = rows.slice(0, UNREAD_CAP).reverse();
  const pms = new Map<number, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const huddles = new Map<string, number[]>();
  const mentions: number[] = [];
  for (const row of kept) {
    if ((row.flags & MENTION_BITS) !== 0) mentions.push(row.id);
    if (row.stream_id !== null) {
      const key = `${row.stream_id}\n${row.topic}`;
      let entry = streams.get(key);
      if (!entry) streams.set(key, (entry = { stream_id: row.stream_id, topic: row.topic, unread_message_ids: [] }));
      entry.unread_message_ids.push(row.id);
      continue;
    }
    const members = (row.direct_key ?? '').split(',').map(Number);
    if (members.length > 2) {
      huddles.set(row.direct_key ?? '', [...(huddles.get(row.direct_key ?? '') ?? []), row.id]);
    } else {
      // A message to oneself has the user as the other party.
      const other = members.find((member) => member !== userId) ?? userId;
      pms.set(other, [...(pms.get(other) ?? []), row.id]);
    }
  }
  return {
    count: kept.length,
    pms: [...pms].map(([other, ids]) => ({ other_user_id: other, sender_id: other, message_ids: ids })),
    streams: [...streams.values()],
    huddles: [...huddles].map(([key, ids]) => ({ user_ids_string: key, message_ids: ids })),
    mentions,
    old_unreads_missing: oldUnreadsMissing,
  };
}

/** `recent_private_conversations` (api-notes §e): newest first, the other members' IDs. */
export function recentConversations(realm: Realm, userId: number): NonNullable<RegisterState['recent_private_conversations']> {
  const rows = realm
    .rows<{ max_message_id: number; direct_key: string }, [number]>(
      `SELECT max(recent.id) AS max_message_id, r.direct_key FROM (
         SELECT um.message_id AS id FROM ${ALL_USER_MESSAGES} um WHERE um.user_id = ? ORDER BY um.message_id DESC ${sqlLimit(RECENT_CONVERSATION_WINDOW)}
       ) recent JOIN messages m ON m.id = recent.id JOIN recipients r ON r.id = m.recipient_id
       WHERE m.stream_id IS NULL GROUP BY r.id ORDER BY max_message_id DESC`,
    )
    .all(userId);
  return rows.map((row) => ({
    max_message_id: row.max_message_id,
    user_ids: row.direct_key
      .split(',')
      .map(Number)
      .filter((member) => member !== userId),
  }));
}

function starredMessageIds(realm: Realm, userId: number): number[] {
  const rows = realm
    .rows<{ message_id: number }, [number, number]>(
      `SELECT message_id FROM ${ALL_USER_MESSAGES} WHERE user_id = ? AND flags & ? != 0 ORDER BY message_id`,
    )
    .all(userId, FLAG_BIT.starred);
  return rows.map((row) => row.message_id);
}

/** The message data types: max ID, unreads, starred, conversations, drafts, scheduled, topics, alert words. */
export function messagesState(realm: Realm, user: UserRow, wants: Wants): RegisterState {
  const state: RegisterState = {};
  if (wants('message')) state['max_message_id'] = maxMessageId(realm, user.id);
  // api-notes §e: unread_msgs needs both types
  if (wants('update_message_flags') && wants('message')) state['unread_msgs'] = unreadState(realm, user.id);
  if (wants('starred_messages')) state['starred_messages'] = starredMessageIds(realm, user.id);
  if (wants('recent_private_conversations')) state['recent_private_conversations'] = recentConversations(realm, user.id);
  if (wants('alert_words')) state['alert_words'] = alertWordsOf(realm, user.id);
  if (wants('scheduled_messages')) {
    state['scheduled_messages'] = pendingScheduledMessagesOf(realm, user.id).map(scheduledMessageObject);
  }
  if (wants('drafts')) state['drafts'] = draftsOf(realm, user.id, MAX_DRAFTS_IN_REGISTER);
  if (wants('user_topic')) state['user_topics'] = userTopicsOf(realm, user.id);
  // The legacy list only for clients that do not ask for its successor (api-notes §e).
  else if (wants('muted_topics')) state['muted_topics'] = mutedTopicsOf(realm, user.id);
  return state;
}
