import { topicLinks } from '../markdown';
import { epochSeconds } from '../lib/clock';
import { linkAttachmentsTxn } from './attachments';
import { errors } from '../lib/errors';
import { FLAG_BIT, flagNames } from '../lib/flags';
import { isModeratorOrAbove } from '../lib/policy';
import { messageRecipientFlags } from '../queries/message-edit';
import type { EditHistoryEntry } from '../queries/message-history';
import { accessMessage, messageById, type MessageRow } from '../queries/messages';
import { messageEditSettings, passesRealmPolicy } from '../queries/realm-settings';
import { renderContextFor } from '../queries/render-context';
import { streamById, subscriberIds, type StreamRow } from '../queries/streams';
import type { UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';
import {
  EDIT_LIMIT_BUFFER_S,
  checkMoveTimeLimitForTopic,
  messagesToMove,
  moveMessagesTxn,
  sendMoveNoticesTxn,
  type MovePlan,
  type PropagateMode,
} from './message-move';
import { checkStreamPost, normalizeContent, normalizeTopic } from './messages';
import { renderMessage, type RenderedMessage } from './render-message';
import { accessStreamById } from '../queries/stream-access';
import type { Published } from '../events/published';
import { writeEachTable } from '../queries/user-message-rows';

export interface UpdateMessageRequest {
  messageId: number;
  topic: string | undefined;
  streamId: number | undefined;
  content: string | undefined;
  propagateMode: PropagateMode;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
}

/** A validated edit: what changes, against the state it was checked on. */
interface EditPlan {
  message: MessageRow;
  /** The message's stream; null for a direct message. */
  stream: StreamRow | null;
  /** Set when content changes: the normalized new content. */
  content: string | null;
  /** Set when the topic or the stream changes. */
  move: MovePlan | null;
}

// messages.rendered_content_version: the renderer has had one version so far (insertMessageTxn stores 1).
const RENDERED_CONTENT_VERSION = 1;

/**
 * PATCH /messages/{message_id}: validates an edit against the realm's settings and the
 * current state, in the public API's order (SPEC PATCH /messages/{message_id}, openapi
 * update-message). Throws the first problem; returns what the edit changes.
 */
export function checkUpdateMessage(realm: Realm, user: UserRow, request: UpdateMessageRequest): EditPlan {
  const { message } = accessMessage(realm, user, request.messageId);
  const settings = messageEditSettings(realm);
  const at = epochSeconds(realm.clock);

  if (request.content !== undefined) {
    if (!settings.allow_message_editing) throw errors.messageEditingDisabled();
    if (message.sender_id !== user.id) throw errors.noPermissionToEdit();
    const limit = settings.message_content_edit_limit_seconds;
    if (limit !== null && at - message.date_sent > limit + EDIT_LIMIT_BUFFER_S) throw errors.editTimeLimitPassed();
  }

  // An unchanged topic or stream is no change at all.
  let topic = request.topic?.trim();
  if (topic === message.topic) topic = undefined;
  let streamId = request.streamId;
  if (streamId !== undefined && streamId === message.stream_id) streamId = undefined;

  if (topic === undefined && request.content === undefined && streamId === undefined) throw errors.nothingToChange();
  if (message.stream_id === null) {
    if (streamId !== undefined) throw errors.directMessageToStream();
    if (topic !== undefined) throw errors.directMessageTopic();
  }
  if (request.propagateMode !== 'change_one' && topic === undefined && streamId === undefined) {
    throw errors.propagateModeWithoutTopicEdit();
  }
  const newTopic = topic === undefined ? null : normalizeTopic(topic);
  if (request.streamId !== undefined && request.content !== undefined) throw errors.contentWithStreamChange();

  const exempt = isModeratorOrAbove(user.role);
  if (newTopic !== null) {
    if (!passesRealmPolicy(realm, user, settings.edit_topic_policy)) throw errors.noPermissionToEdit();
    const limit = settings.move_messages_within_stream_limit_seconds;
    if (!exempt && limit !== null && at - message.date_sent > limit + EDIT_LIMIT_BUFFER_S) {
      throw errors.topicEditTimeLimitPassed();
    }
  }
  const content = request.content === undefined ? null : normalizeEditedContent(request.content);

  const stream = message.stream_id === null ? null : (streamById(realm, message.stream_id) ?? null);
  let newStream: StreamRow | null = null;
  if (streamId !== undefined) {
    if (!passesRealmPolicy(realm, user, settings.move_messages_between_streams_policy)) throw errors.noPermissionToMove();
    newStream = accessStreamById(realm, user, streamId, false);
    checkStreamPost(realm, user, newStream);
    const limit = settings.move_messages_between_streams_limit_seconds;
    if (!exempt && limit !== null && at - message.date_sent > limit + EDIT_LIMIT_BUFFER_S) {
      throw errors.streamEditTimeLimitPassed();
    }
  }

  let move: MovePlan | null = null;
  if (stream && (newTopic !== null || newStream)) {
    move = {
      target: { id: message.id, topic: message.topic },
      stream,
      newStream: newStream ?? stream,
      newTopic,
      propagateMode: request.propagateMode,
    };
    checkMoveTimeLimitForTopic(realm, user, move, settings, at);
  }
  return { message, stream, content, move };
}

// The public API stores an emptied message as "(deleted)" rather than refusing the edit.
function normalizeEditedContent(raw: string): string {
  return normalizeContent(raw.trimEnd() === '' ? '(deleted)' : raw);
}

/** PATCH /messages/{message_id}: checks, renders new content, then applies the edit in one transaction. */
export async function doUpdateMessage(realm: Realm, user: UserRow, request: UpdateMessageRequest): Promise<void> {
  const checked = checkUpdateMessage(realm, user, request);
  const rendered = checked.content === null ? null : await renderMessage(realm, user, checked.content, checked.message.topic);
  await realm.transact((tx) => {
    // Rendering yielded: check again on the state this transaction sees.
    const plan = checkUpdateMessage(tx.realm, user, request);
    updateMessageTxn(tx, user, plan, plan.content === null ? null : rendered, request);
  });
}

function updateMessageTxn(tx: Txn, user: UserRow, plan: EditPlan, rendered: RenderedMessage | null, request: UpdateMessageRequest): void {
  const realm = tx.realm;
  const { message, stream, move } = plan;
  const editTimestamp = epochSeconds(realm.clock);
  const event: Published<'update_message'> = {
    type: 'update_message',
    user_id: user.id,
    edit_timestamp: editTimestamp,
    message_id: message.id,
    message_ids: [message.id],
    rendering_only: false,
    flags_by_user: {},
  };
  if (stream) {
    event.stream_id = stream.id;
    event.stream_name = stream.name;
  }
  const entry: EditHistoryEntry = { user_id: user.id, timestamp: editTimestamp };

  if (plan.content !== null && rendered) {
    editContentTxn(tx, message, plan.content, rendered);
    // The edited content's upload links replace the old ones.
    linkAttachmentsTxn(tx, message.id, user, rendered.uploadedFilePaths, true);
    Object.assign(event, {
      orig_content: message.content,
      orig_rendered_content: message.rendered_content,
      prev_rendered_content_version: RENDERED_CONTENT_VERSION,
      content: plan.content,
      rendered_content: rendered.html,
      is_me_message: rendered.isMeMessage,
    });
    entry.prev_content = message.content;
    entry.prev_rendered_content = message.rendered_content;
    entry.prev_rendered_content_version = RENDERED_CONTENT_VERSION;
  }

  let movedIds: number[] = [message.id];
  let lostAccess: number[] = [];
  if (move) {
    event.propagate_mode = move.propagateMode;
    event.orig_subject = message.topic;
    const moveEntry: EditHistoryEntry = { user_id: user.id, timestamp: editTimestamp };
    let links: string | null = null;
    if (move.newTopic !== null) {
      const newLinks = topicLinks(move.newTopic, renderContextFor(realm));
      links = JSON.stringify(newLinks);
      Object.assign(event, { subject: move.newTopic, topic_links: newLinks });
      Object.assign(moveEntry, { prev_topic: message.topic, topic: move.newTopic });
    }
    if (move.newStream.id !== move.stream.id) {
      event.new_stream_id = move.newStream.id;
      Object.assign(moveEntry, { prev_stream: move.stream.id, stream: move.newStream.id });
    }
    Object.assign(entry, moveEntry);
    movedIds = messagesToMove(realm, user, move);
    // The target's entry also records a content change; the others only the move.
    const outcome = moveMessagesTxn(tx, move, movedIds, editTimestamp, (id) => (id === message.id ? entry : moveEntry), links);
    lostAccess = outcome.lostAccessUserIds;
  } else {
    const stored = messageById(realm, message.id)?.edit_history ?? null;
    const entries = stored ? (JSON.parse(stored) as EditHistoryEntry[]) : [];
    entries.unshift(entry);
    realm
      .stmt('UPDATE messages SET last_edit_timestamp = ?, edit_history = ? WHERE id = ?')
      .run(editTimestamp, JSON.stringify(entries), message.id);
  }
  event.message_ids = movedIds;

  // api-notes §d update_message: users with a row, plus the original stream's subscribers when
  // its history is shared with them; each sees their own flags (`flags_by_user`, which the
  // event queue turns into the event's `flags`), subscribers without a row ["read"].
  const flagsByUser: Record<number, string[]> = {};
  for (const [userId, bits] of messageRecipientFlags(realm, message.id)) flagsByUser[userId] = flagNames(bits);
  if (stream && stream.history_public_to_subscribers === 1) {
    const lost = new Set(lostAccess);
    for (const userId of subscriberIds(realm, stream.id)) {
      if (!lost.has(userId) && !(userId in flagsByUser)) flagsByUser[userId] = ['read'];
    }
  }
  event.flags_by_user = flagsByUser;
  tx.publish(event, Object.keys(flagsByUser).map(Number));

  if (move) sendMoveNoticesTxn(tx, user, move, movedIds, { oldThread: request.notifyOldThread, newThread: request.notifyNewThread });
}

/** New content and its flags: mentions, wildcard mentions and alert words are recomputed per recipient; read, starred and the rest stay. */
function editContentTxn(tx: Txn, message: MessageRow, content: string, rendered: RenderedMessage): void {
  const realm = tx.realm;
  realm
    .stmt('UPDATE messages SET content = ?, rendered_content = ?, rendered_content_version = ?, is_me_message = ? WHERE id = ?')
    .run(content, rendered.html, RENDERED_CONTENT_VERSION, rendered.isMeMessage ? 1 : 0, message.id);
  const recomputed = FLAG_BIT.mentioned | FLAG_BIT.wildcard_mentioned | FLAG_BIT.has_alert_word;
  const setFlags = writeEachTable(realm, (table) => `UPDATE ${table} SET flags = ? WHERE user_id = ? AND message_id = ?`);
  for (const [userId, bits] of messageRecipientFlags(realm, message.id)) {
    let flags = bits & ~recomputed;
    if (rendered.mentionedUserIds.has(userId)) flags |= FLAG_BIT.mentioned;
    if (rendered.wildcardMentioned && userId !== message.sender_id) flags |= FLAG_BIT.wildcard_mentioned;
    if (rendered.alertWordUserIds.has(userId) && userId !== message.sender_id) flags |= FLAG_BIT.has_alert_word;
    if (flags !== bits) setFlags(flags, userId, message.id);
  }
}
