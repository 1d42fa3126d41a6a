import { errors } from '../lib/errors';
import { epochSeconds } from '../lib/clock';
import { linkAttachmentsTxn } from './attachments';
import { FLAG_BIT } from '../lib/flags';
import { usersWhoMuted } from '../queries/accounts';
import { fullMemberJoinCutoff } from '../queries/full-members';
import { ROLE } from '../lib/roles';
import { directRecipientByKey, MessageLookups, messageObject, type MessageRow } from '../queries/messages';
import { STREAM_POST_POLICY, isSubscribed, streamById, streamByName, subscriberIds, type StreamRow } from '../queries/streams';
import { userByEmail, userById, type UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { renderMessage, type RenderedMessage } from './render-message';
import { newRowsTable } from '../queries/user-message-rows';

// api-notes §Summary 11: the `max_*` values register reports.
export const MAX_MESSAGE_LENGTH = 10_000;
export const MAX_TOPIC_LENGTH = 60;
const TRUNCATED_MESSAGE_SUFFIX = '\n[message truncated]';

// Messages sent from a person's own app count as read by their sender; API clients' do not,
// so a bot's own posts stay visible to it as unread. The public API's apps name themselves
// after their platform, bare or behind the app's one-word name (`<app>android`, `<app>ios`,
// `<app>desktop` ...), and desktop apps may say so in words.
const HUMAN_CLIENT =
  /^(website|snipe|ios|android|desktop|mobile|terminal|electron|[a-z]{1,12}(android|ios|desktop|mobile|electron|terminal))$|desktop app/;

export type SendTarget =
  { kind: 'stream'; to: (number | string)[]; topic: string | undefined } | { kind: 'direct'; to: (number | string)[] };

export interface SendRequest {
  target: SendTarget;
  content: string;
  client: string;
  queueId: string | undefined;
  localId: string | undefined;
}

/** Trailing whitespace trimmed; too long is cut with a marker, as the public API does. */
export function normalizeContent(raw: string): string {
  const content = raw.trimEnd();
  if (content === '') throw errors.badRequest('Message must not be empty');
  if (content.includes('\0')) throw errors.badRequest('Message must not contain null bytes');
  if (content.length <= MAX_MESSAGE_LENGTH) return content;
  return content.slice(0, MAX_MESSAGE_LENGTH - TRUNCATED_MESSAGE_SUFFIX.length) + TRUNCATED_MESSAGE_SUFFIX;
}

export function normalizeTopic(raw: string | undefined): string {
  if (raw === undefined) throw errors.badRequest('Missing topic');
  const topic = raw.trim();
  if (topic === '') throw errors.badRequest("Topic can't be empty!");
  if (topic.includes('\0')) throw errors.badRequest('Topic must not contain null bytes');
  return topic.length <= MAX_TOPIC_LENGTH ? topic : topic.slice(0, MAX_TOPIC_LENGTH - 3) + '...';
}

export function resolveStream(realm: Realm, to: (number | string)[]): StreamRow {
  if (to.length === 0) throw errors.badRequest('Missing stream');
  if (to.length > 1) throw errors.badRequest('Cannot send to multiple streams');
  const target = to[0] as number | string;
  if (typeof target === 'number') {
    const stream = streamById(realm, target);
    if (!stream) throw errors.streamIdDoesNotExist(target);
    return stream;
  }
  const stream = streamByName(realm, target.trim());
  if (!stream) throw errors.streamNameDoesNotExist(target);
  return stream;
}

/** May `sender` post to `stream`? (SPEC Stream.stream_post_policy, api-notes §f messages.) */
export function checkStreamPost(realm: Realm, sender: UserRow, stream: StreamRow): void {
  const subscribed = isSubscribed(realm, sender.id, stream.id);
  if ((stream.invite_only || sender.role === ROLE.GUEST) && !subscribed) {
    throw errors.badRequest(`Not authorized to send to stream '${stream.name}'`);
  }
  const refusal = streamPostRefusal(realm, sender, stream.stream_post_policy);
  if (refusal === null) return;
  // A bot may post where its owner may, as the public server lets it.
  const owner = sender.is_bot && sender.bot_owner_id !== null ? userById(realm, sender.bot_owner_id) : undefined;
  if (owner === undefined || streamPostRefusal(realm, owner, stream.stream_post_policy) !== null) throw errors.badRequest(refusal);
}

/** Why `user`'s role or account age keeps them from posting under `policy`; null when it does not. */
function streamPostRefusal(realm: Realm, user: UserRow, policy: number): string | null {
  switch (policy) {
    case STREAM_POST_POLICY.ADMINS:
      return user.role > ROLE.ADMINISTRATOR ? 'Only organization administrators can send to this stream.' : null;
    case STREAM_POST_POLICY.MODERATORS:
      return user.role > ROLE.MODERATOR ? 'Only organization administrators and moderators can send to this stream.' : null;
    case STREAM_POST_POLICY.FULL_MEMBERS:
      if (user.role === ROLE.GUEST) return 'Guests cannot send to this stream.';
      // Members inside the realm's waiting period are new members; moderators and above never are.
      return user.role === ROLE.MEMBER && user.date_joined > fullMemberJoinCutoff(realm) ? 'New members cannot send to this stream.' : null;
    default:
      return null;
  }
}

export function resolveDirectRecipients(realm: Realm, sender: UserRow, to: (number | string)[]): UserRow[] {
  if (to.length === 0) throw errors.badRequest('Message must have recipients');
  const members = new Map<number, UserRow>([[sender.id, sender]]);
  for (const target of to) {
    const user = typeof target === 'number' ? userById(realm, target) : userByEmail(realm, target);
    if (!user) throw errors.badRequest(typeof target === 'number' ? `Invalid user ID ${target}` : `Invalid email '${target}'`);
    if (!user.is_active) throw errors.badRequest(`'${user.email}' is no longer using this server.`);
    members.set(user.id, user);
  }
  return [...members.values()];
}

function directRecipientId(realm: Realm, memberIds: number[]): number {
  const key = [...memberIds].sort((a, b) => a - b).join(',');
  const existing = directRecipientByKey(realm, key);
  if (existing) return existing.id;
  return Number(realm.stmt('INSERT INTO recipients (kind, direct_key) VALUES (3, ?)').run(key).lastInsertRowid);
}

/** POST /messages: validates, renders, stores and queues the message event; returns the ID. */
export async function doSendMessage(realm: Realm, sender: UserRow, request: SendRequest): Promise<number> {
  if (request.queueId !== undefined && request.localId === undefined) throw errors.missingArgument('local_id');
  const content = normalizeContent(request.content);
  const target = request.target;
  let stream: StreamRow | null = null;
  let topic = '';
  let directMembers: UserRow[] = [];
  if (target.kind === 'stream') {
    stream = resolveStream(realm, target.to);
    topic = normalizeTopic(target.topic);
    checkStreamPost(realm, sender, stream);
  } else {
    directMembers = resolveDirectRecipients(realm, sender, target.to);
  }
  const rendered = await renderMessage(realm, sender, content, topic);

  return realm.transact((tx) =>
    insertMessageTxn(tx, {
      sender,
      stream: stream && target.kind === 'stream' ? streamStillOpenTxn(tx, sender, stream, target.to) : null,
      // Again for the same reason: a recipient may have been deactivated meanwhile.
      directMembers: target.kind === 'direct' ? resolveDirectRecipients(tx.realm, sender, target.to) : directMembers,
      topic,
      content,
      rendered,
      client: request.client,
      queueId: request.queueId ?? null,
      localId: request.localId ?? null,
    }),
  );
}

/**
 * The stream read again in the writing transaction: while the message rendered, it may have
 * been archived or closed to the sender (SPEC Stream.stream_post_policy), and then the send
 * fails as it would have a moment later.
 */
function streamStillOpenTxn(tx: Txn, sender: UserRow, checked: StreamRow, to: (number | string)[]): StreamRow {
  const stream = streamById(tx.realm, checked.id);
  if (!stream) {
    const requested = to[0] as number | string;
    throw typeof requested === 'number' ? errors.streamIdDoesNotExist(requested) : errors.streamNameDoesNotExist(requested);
  }
  checkStreamPost(tx.realm, sender, stream);
  return stream;
}

export interface NewMessage {
  sender: UserRow;
  /** The stream, or null for a direct message to `directMembers` (the sender included). */
  stream: StreamRow | null;
  directMembers: UserRow[];
  topic: string;
  content: string;
  rendered: RenderedMessage;
  client: string;
  queueId: string | null;
  localId: string | null;
  /** Users for whom the message arrives already read (e.g. the creator of a new stream, for its notice). */
  readBy?: readonly number[];
}

/**
 * Recipients sharing one set of flags past which their rows go in one statement: measured on a
 * 5,000-person realm, a row at a time cost 11.9-12.7 ms for the all-hands stream's 4,999 rows
 * and 2.6-2.9 ms for 1,000, one INSERT ... SELECT over a JSON list of the users 7.7-8.2 and
 * 1.7-1.8 ms; for 100 rows the list was slower (parsing it outweighs the calls it saves).
 */
export const BULK_RECIPIENT_ROWS = 500;

/** Each recipient's row for a new message, with its flags. */
function insertRecipientRows(realm: Realm, messageId: number, flagsByUser: ReadonlyMap<number, number>): void {
  const table = newRowsTable(flagsByUser.size, realm.recentRowsMinRecipients);
  const insertRow = realm.stmt(`INSERT INTO ${table} (user_id, message_id, flags) VALUES (?, ?, ?)`);
  // Most messages reach fewer people than one statement pays off for: no grouping by flags.
  if (flagsByUser.size < BULK_RECIPIENT_ROWS) {
    for (const [userId, flags] of flagsByUser) insertRow.run(userId, messageId, flags);
    return;
  }
  const usersByFlags = new Map<number, number[]>();
  for (const [userId, flags] of flagsByUser) {
    let users = usersByFlags.get(flags);
    if (!users) usersByFlags.set(flags, (users = []));
    users.push(userId);
  }
  for (const [flags, users] of usersByFlags) {
    if (users.length >= BULK_RECIPIENT_ROWS) {
      realm
        .stmt(`INSERT INTO ${table} (user_id, message_id, flags) SELECT value, ?, ? FROM json_each(?)`)
        .run(messageId, flags, JSON.stringify(users));
      continue;
    }
    for (const userId of users) insertRow.run(userId, messageId, flags);
  }
}

/** Stores a validated, rendered message with its recipients' flags and queues its event. */
export function insertMessageTxn(tx: Txn, m: NewMessage): number {
  const realm = tx.realm;
  const { sender, stream, rendered } = m;
  // Whether this is the stream's first message, asked before this action writes: the lookup is
  // current inside the transaction (any write to streams moves cache_version), whatever row the
  // caller holds, and a send has just read it, so no statement runs for it.
  const firstOfStream = stream !== null && (streamById(realm, stream.id)?.first_message_id ?? null) === null;
  const recipientId = stream
    ? stream.recipient_id
    : directRecipientId(
        realm,
        m.directMembers.map((u) => u.id),
      );
  const now = epochSeconds(realm.clock);
  const topicLinksJson = JSON.stringify(rendered.topicLinks);
  const id = Number(
    realm
      .stmt(
        `INSERT INTO messages (sender_id, recipient_id, stream_id, topic, content, rendered_content,
           rendered_content_version, date_sent, client, is_me_message, topic_links)
         VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
      )
      .run(
        sender.id,
        recipientId,
        stream?.id ?? null,
        m.topic,
        m.content,
        rendered.html,
        now,
        m.client,
        rendered.isMeMessage ? 1 : 0,
        topicLinksJson,
      ).lastInsertRowid,
  );
  const recipients = stream ? subscriberIds(realm, stream.id) : m.directMembers.map((u) => u.id);
  if (!recipients.includes(sender.id)) recipients.push(sender.id);
  const flagsByUser = new Map<number, number>();
  const mutedBy = usersWhoMuted(realm, sender.id);
  for (const userId of recipients) {
    let flags = 0;
    if (userId === sender.id && HUMAN_CLIENT.test(m.client.toLowerCase())) flags |= FLAG_BIT.read;
    if (m.readBy?.includes(userId)) flags |= FLAG_BIT.read;
    // a muted sender's messages arrive read for those who muted them (openapi mute-user).
    if (mutedBy.has(userId)) flags |= FLAG_BIT.read;
    if (rendered.mentionedUserIds.has(userId)) flags |= FLAG_BIT.mentioned;
    if (rendered.wildcardMentioned && userId !== sender.id) flags |= FLAG_BIT.wildcard_mentioned;
    if (rendered.alertWordUserIds.has(userId) && userId !== sender.id) flags |= FLAG_BIT.has_alert_word;
    flagsByUser.set(userId, flags);
  }
  insertRecipientRows(realm, id, flagsByUser);
  // The uploads this message links become readable by its readers.
  if (rendered.uploadedFilePaths.length > 0) linkAttachmentsTxn(tx, id, sender, rendered.uploadedFilePaths, false);
  // Conditional still, as the write always was.
  if (stream && firstOfStream) {
    realm.stmt('UPDATE streams SET first_message_id = ? WHERE id = ? AND first_message_id IS NULL').run(id, stream.id);
  }
  // The row as just written, without reading it back.
  const stored: MessageRow = {
    id,
    sender_id: sender.id,
    recipient_id: recipientId,
    stream_id: stream?.id ?? null,
    topic: m.topic,
    content: m.content,
    rendered_content: rendered.html,
    date_sent: now,
    client: m.client,
    is_me_message: rendered.isMeMessage ? 1 : 0,
    topic_links: topicLinksJson,
    last_edit_timestamp: null,
    edit_history: null,
    version: 0,
  };
  tx.publish(
    {
      type: 'message',
      message: messageObject(realm, stored, 0, true, new MessageLookups(realm).withoutReactions(id).knowing(sender, stream)),
      raw_content: m.content,
      flags_by_user: Object.fromEntries(flagsByUser),
      sender_queue_id: m.queueId ?? undefined,
      local_message_id: m.localId ?? undefined,
      public_stream: stream !== null && stream.invite_only === 0,
    },
    recipients,
  );
  return id;
}
