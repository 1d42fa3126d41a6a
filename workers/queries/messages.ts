import { errors } from '../lib/errors';
import { FLAG_BIT, flagNames } from '../lib/flags';
import { ROLE } from '../lib/roles';
import type { Realm } from '../realm';
import { isSubscribed, streamById } from './streams';
import { avatarUrl, userById, type UserRow } from './users';

export interface MessageRow {
  id: number;
  sender_id: number;
  recipient_id: number;
  stream_id: number | null;
  topic: string;
  content: string;
  rendered_content: string;
  date_sent: number;
  client: string;
  is_me_message: number;
  topic_links: string;
  last_edit_timestamp: number | null;
  edit_history: string | null;
}

export function messageById(realm: Realm, id: number): MessageRow | undefined {
  return realm.stmt('SELECT * FROM messages WHERE id = ?').get(id) as MessageRow | undefined;
}

export function userFlags(realm: Realm, userId: number, messageId: number): number | undefined {
  const row = realm.stmt('SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?').get(userId, messageId) as
    | { flags: number }
    | undefined;
  return row?.flags;
}

/**
 * The user's flags on a message they may read, or an error: a message is readable when the
 * user received it, or as history of a stream whose history the user may see.
 */
export function accessMessage(realm: Realm, user: UserRow, messageId: number): { message: MessageRow; flags: number } {
  const message = messageById(realm, messageId);
  if (!message) throw errors.invalidMessage();
  const flags = userFlags(realm, user.id, messageId);
  if (flags !== undefined) return { message, flags };
  if (message.stream_id !== null) {
    const stream = streamById(realm, message.stream_id);
    if (stream) {
      const publicHistory = !stream.invite_only && user.role !== ROLE.GUEST;
      const subscribedHistory = stream.history_public_to_subscribers === 1 && isSubscribed(realm, user.id, stream.id);
      if (publicHistory || subscribedHistory) return { message, flags: FLAG_BIT.read | FLAG_BIT.historical };
    }
  }
  throw errors.invalidMessage();
}

function displayRecipient(realm: Realm, message: MessageRow): string | Record<string, unknown>[] {
  if (message.stream_id !== null) return streamById(realm, message.stream_id)?.name ?? '';
  const key = (realm.stmt('SELECT direct_key FROM recipients WHERE id = ?').get(message.recipient_id) as { direct_key: string })
    .direct_key;
  return key.split(',').map((id) => {
    const member = userById(realm, Number(id)) as UserRow;
    return { id: member.id, email: member.email, full_name: member.full_name, is_mirror_dummy: false };
  });
}

function reactions(realm: Realm, messageId: number): Record<string, unknown>[] {
  const rows = realm
    .stmt(
      `SELECT r.emoji_name, r.emoji_code, r.reaction_type, r.user_id, u.email, u.full_name
       FROM reactions r JOIN users u ON u.id = r.user_id WHERE r.message_id = ? ORDER BY r.id`,
    )
    .all(messageId) as { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number; email: string; full_name: string }[];
  return rows.map((r) => ({
    emoji_name: r.emoji_name,
    emoji_code: r.emoji_code,
    reaction_type: r.reaction_type,
    user_id: r.user_id,
    user: { id: r.user_id, email: r.email, full_name: r.full_name, is_mirror_dummy: false },
  }));
}

/** The API's message object (SPEC §Resources, Message) as `viewer` sees it. */
export function messageObject(
  realm: Realm,
  message: MessageRow,
  flags: number,
  applyMarkdown: boolean,
): Record<string, unknown> {
  const sender = userById(realm, message.sender_id) as UserRow;
  const object: Record<string, unknown> = {
    id: message.id,
    sender_id: sender.id,
    sender_email: sender.email,
    sender_full_name: sender.full_name,
    sender_realm_str: realm.info.string_id,
    avatar_url: avatarUrl(sender),
    client: message.client,
    content: applyMarkdown ? message.rendered_content : message.content,
    content_type: applyMarkdown ? 'text/html' : 'text/x-markdown',
    display_recipient: displayRecipient(realm, message),
    flags: flagNames(flags),
    is_me_message: message.is_me_message === 1,
    reactions: reactions(realm, message.id),
    recipient_id: message.recipient_id,
    subject: message.topic,
    submessages: [],
    timestamp: message.date_sent,
    topic_links: JSON.parse(message.topic_links) as unknown,
    type: message.stream_id !== null ? 'stream' : 'private',
  };
  if (message.stream_id !== null) object['stream_id'] = message.stream_id;
  if (message.last_edit_timestamp !== null) {
    object['last_edit_timestamp'] = message.last_edit_timestamp;
    if (message.edit_history) object['edit_history'] = JSON.parse(message.edit_history) as unknown;
  }
  return object;
}
