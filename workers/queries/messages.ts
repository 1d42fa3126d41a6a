import { errors } from '../lib/errors';
import { flagNames, HISTORICAL_FLAGS } from '../lib/flags';
import type { Realm } from '../realm';
import { canReadStreamHistory, streamById } from './streams';
import { avatarUrl, knownUser, type UserRow } from './users';
import type { FetchedMessage, MessageObject } from '../schemas/objects';
import { ALL_USER_MESSAGES } from './user-message-rows';

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
  /** Moves on with every change to the row or its reactions (migration 16): the cache's key. */
  version: number;
}

export function messageById(realm: Realm, id: number): MessageRow | undefined {
  return realm.rows<MessageRow, [number]>('SELECT * FROM messages WHERE id = ?').get(id);
}

/** The recipient row of a direct conversation, by its members' sorted IDs joined with commas. */
export function directRecipientByKey(realm: Realm, directKey: string): { id: number } | undefined {
  return realm.rows<{ id: number }, [string]>('SELECT id FROM recipients WHERE direct_key = ?').get(directKey);
}

/** The members' key of a direct conversation's recipient (a message's `recipient_id`). */
export function directKeyOf(realm: Realm, recipientId: number): string {
  return realm.oneRow<{ direct_key: string }, [number]>('SELECT direct_key FROM recipients WHERE id = ?', recipientId).direct_key;
}

/** The realm's newest message ID, 0 without messages. */
export function newestMessageId(realm: Realm): number {
  return realm.oneRow<{ id: number | null }>('SELECT max(id) AS id FROM messages').id ?? 0;
}

export function userFlags(realm: Realm, userId: number, messageId: number): number | undefined {
  return realm
    .rows<{ flags: number }, [number, number]>(`SELECT flags FROM ${ALL_USER_MESSAGES} WHERE user_id = ? AND message_id = ?`)
    .get(userId, messageId)?.flags;
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
    if (stream && canReadStreamHistory(realm, user, stream)) return { message, flags: HISTORICAL_FLAGS };
  }
  throw errors.invalidMessage();
}

type Reaction = MessageObject['reactions'][number];
type DirectRecipient = Exclude<MessageObject['display_recipient'], string>[number];

interface ReactionRow {
  message_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
  email: string;
  full_name: string;
}

const REACTION_COLUMNS = 'r.message_id, r.emoji_name, r.emoji_code, r.reaction_type, r.user_id, u.email, u.full_name';

function reactionObject(r: ReactionRow): Reaction {
  return {
    emoji_name: r.emoji_name,
    emoji_code: r.emoji_code,
    reaction_type: r.reaction_type,
    user_id: r.user_id,
    user: { id: r.user_id, email: r.email, full_name: r.full_name, is_mirror_dummy: false },
  };
}

/**
 * The rows that message objects refer to (senders, streams, conversations, reactions), read
 * once per request: a page of a hundred messages names a few users and streams, and reading
 * them per message was two thirds of a fetch (measured).
 */
export class MessageLookups {
  private readonly users = new Map<number, UserRow>();
  private readonly avatarUrls = new Map<number, string>();
  private readonly streamNames = new Map<number, string>();
  private readonly conversations = new Map<number, DirectRecipient[]>();
  private reactionsByMessage: Map<number, Reaction[]> | null = null;

  constructor(private readonly realm: Realm) {}

  user(id: number): UserRow {
    let user = this.users.get(id);
    if (!user) this.users.set(id, (user = knownUser(this.realm, id)));
    return user;
  }

  /** A hash per sender, not per message. */
  avatarUrl(user: UserRow): string {
    let url = this.avatarUrls.get(user.id);
    if (url === undefined) this.avatarUrls.set(user.id, (url = avatarUrl(user)));
    return url;
  }

  displayRecipient(message: MessageRow): string | DirectRecipient[] {
    if (message.stream_id !== null) {
      let name = this.streamNames.get(message.stream_id);
      if (name === undefined) this.streamNames.set(message.stream_id, (name = streamById(this.realm, message.stream_id)?.name ?? ''));
      return name;
    }
    let members = this.conversations.get(message.recipient_id);
    if (!members) {
      const key = directKeyOf(this.realm, message.recipient_id);
      members = key.split(',').map((id) => {
        const member = this.user(Number(id));
        return { id: member.id, email: member.email, full_name: member.full_name, is_mirror_dummy: false };
      });
      this.conversations.set(message.recipient_id, members);
    }
    return members;
  }

  /** A message being sent: its sender and stream are in hand already, no need to read them. */
  knowing(sender: UserRow, stream: { id: number; name: string } | null): this {
    this.users.set(sender.id, sender);
    if (stream) this.streamNames.set(stream.id, stream.name);
    return this;
  }

  /** A message being sent has no reactions yet: nothing to read. */
  withoutReactions(messageId: number): this {
    (this.reactionsByMessage ??= new Map()).set(messageId, []);
    return this;
  }

  /** Reads the reactions of every message of a page in one query. */
  preloadReactions(messageIds: readonly number[]): void {
    const rows = this.realm
      .rows<ReactionRow, [string]>(
        `SELECT ${REACTION_COLUMNS} FROM reactions r JOIN users u ON u.id = r.user_id
         WHERE r.message_id IN (SELECT value FROM json_each(?)) ORDER BY r.id`,
      )
      .all(JSON.stringify(messageIds));
    const byMessage = new Map<number, Reaction[]>(messageIds.map((id) => [id, []]));
    for (const row of rows) byMessage.get(row.message_id)?.push(reactionObject(row));
    this.reactionsByMessage = byMessage;
  }

  reactions(messageId: number): Reaction[] {
    const preloaded = this.reactionsByMessage?.get(messageId);
    if (preloaded) return preloaded;
    const rows = this.realm
      .rows<ReactionRow, [number]>(
        `SELECT ${REACTION_COLUMNS} FROM reactions r JOIN users u ON u.id = r.user_id WHERE r.message_id = ? ORDER BY r.id`,
      )
      .all(messageId);
    return rows.map(reactionObject);
  }
}

/** The API's message object (SPEC §Resources, Message) as `viewer` sees it. */
export function messageObject(
  realm: Realm,
  message: MessageRow,
  flags: number,
  applyMarkdown: boolean,
  lookups: MessageLookups = new MessageLookups(realm),
): FetchedMessage {
  const object: Omit<FetchedMessage, 'flags'> & { flags?: string[] } = sharedMessageFields(realm, message, applyMarkdown, lookups);
  // Added to the object rather than spread into a copy: sharedMessageFields says why.
  object.flags = flagNames(flags);
  return object as FetchedMessage;
}

/**
 * The message object without the viewer's flags: what every viewer sees alike. Built without
 * `flags` rather than deleting it after, since a deleted property leaves V8 a slow dictionary
 * object that JSON.stringify serialises several times slower.
 */
export function sharedMessageFields(realm: Realm, message: MessageRow, applyMarkdown: boolean, lookups: MessageLookups): MessageObject {
  const sender = lookups.user(message.sender_id);
  const object: MessageObject = {
    id: message.id,
    sender_id: sender.id,
    sender_email: sender.email,
    sender_full_name: sender.full_name,
    sender_realm_str: realm.info.string_id,
    avatar_url: lookups.avatarUrl(sender),
    client: message.client,
    content: applyMarkdown ? message.rendered_content : message.content,
    content_type: applyMarkdown ? 'text/html' : 'text/x-markdown',
    display_recipient: lookups.displayRecipient(message),
    is_me_message: message.is_me_message === 1,
    reactions: lookups.reactions(message.id),
    recipient_id: message.recipient_id,
    subject: message.topic,
    submessages: [],
    timestamp: message.date_sent,
    // Stored as the renderer wrote them (a JSON list of {text, url}).
    topic_links: JSON.parse(message.topic_links) as MessageObject['topic_links'],
    type: message.stream_id !== null ? 'stream' : 'private',
  };
  if (message.stream_id !== null) object.stream_id = message.stream_id;
  if (message.last_edit_timestamp !== null) {
    object.last_edit_timestamp = message.last_edit_timestamp;
    if (message.edit_history) object.edit_history = JSON.parse(message.edit_history) as MessageObject['edit_history'];
  }
  return object;
}
