import { sqlLimit } from '../lib/sql-limit';
import { errors } from '../lib/errors';
import { epochSeconds } from '../lib/clock';
import { attachmentIdsOfMessages } from '../queries/attachments';
import { afterMessagesDeletedTxn } from './attachments';
import { firstStreamMessageId } from '../queries/message-edit';
import { accessMessage, messageById, type MessageRow } from '../queries/messages';
import { messageEditSettings, passesRealmPolicy } from '../queries/realm-settings';
import { subscriberIds, type StreamRow } from '../queries/streams';
import { isAdmin, userById, type UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { accessStreamById } from '../queries/stream-access';
import type { Published } from '../events/published';
import { ALL_USER_MESSAGES, hasRowParams, hasRowSql } from '../queries/user-message-rows';

/**
 * DELETE /messages/{message_id} (api-notes §b): administrators always; otherwise the sender
 * (or the owner of the sending bot) when delete_own_message_policy admits their role, within
 * message_content_delete_limit_seconds (null: no limit).
 */
export function checkDeleteMessage(realm: Realm, user: UserRow, messageId: number): MessageRow {
  const { message } = accessMessage(realm, user, messageId);
  if (isAdmin(user)) return message;
  const ownBot = userById(realm, message.sender_id)?.bot_owner_id === user.id;
  if (message.sender_id !== user.id && !ownBot) throw errors.noPermissionToDelete();
  const settings = messageEditSettings(realm);
  if (!passesRealmPolicy(realm, user, settings.delete_own_message_policy)) throw errors.noPermissionToDelete();
  const limit = settings.message_content_delete_limit_seconds;
  if (limit !== null && epochSeconds(realm.clock) - message.date_sent > limit) throw errors.deleteTimeLimitPassed();
  return message;
}

export async function doDeleteMessage(realm: Realm, user: UserRow, messageId: number): Promise<void> {
  checkDeleteMessage(realm, user, messageId);
  await realm.transact((tx) => {
    // Another request of the same commit group may have deleted it since the check.
    if (!messageById(tx.realm, messageId)) throw errors.messageAlreadyDeleted();
    deleteMessagesTxn(tx, [checkDeleteMessage(tx.realm, user, messageId)]);
  });
}

/**
 * Deletes messages of one conversation and queues one `delete_message` event (the bulk form,
 * api-notes §d) to everyone who had them: stream messages to the stream's subscribers and
 * whoever still holds a row, direct messages to their row holders. Per-user rows and
 * reactions go with the message (ON DELETE CASCADE); the stream's first_message_id moves to
 * the oldest message left.
 */
export function deleteMessagesTxn(tx: Txn, messages: readonly MessageRow[]): void {
  const first = messages[0];
  if (!first) return;
  const realm = tx.realm;
  const audience = new Set<number>();
  const rowHolders = realm.rows<{ user_id: number }, [number]>(`SELECT user_id FROM ${ALL_USER_MESSAGES} WHERE message_id = ?`);
  const remove = realm.stmt('DELETE FROM messages WHERE id = ?');
  // Read before the links go with the messages (ON DELETE CASCADE)
  const linkedAttachments = attachmentIdsOfMessages(
    realm,
    messages.map((m) => m.id),
  );
  for (const message of messages) {
    for (const row of rowHolders.all(message.id)) audience.add(row.user_id);
    remove.run(message.id);
  }
  const event: Published<'delete_message'> = {
    type: 'delete_message',
    message_ids: messages.map((m) => m.id).sort((a, b) => a - b),
    message_type: first.stream_id === null ? 'private' : 'stream',
  };
  if (first.stream_id !== null) {
    event.stream_id = first.stream_id;
    event.topic = first.topic;
    for (const userId of subscriberIds(realm, first.stream_id)) audience.add(userId);
    for (const streamId of new Set(messages.map((m) => m.stream_id))) {
      if (streamId === null) continue;
      const stream = realm.oneRow<{ recipient_id: number }, [number]>('SELECT recipient_id FROM streams WHERE id = ?', streamId);
      realm.stmt('UPDATE streams SET first_message_id = ? WHERE id = ?').run(firstStreamMessageId(realm, stream.recipient_id), streamId);
    }
  }
  tx.publish(event, [...audience]);
  afterMessagesDeletedTxn(tx, linkedAttachments);
}

export interface DeleteTopicLimits {
  /** Stop starting new batches after this long; the client calls again (openapi delete-topic). */
  timeBudgetMs: number;
  batchSize: number;
}

function checkDeleteTopic(realm: Realm, user: UserRow, streamId: number): StreamRow {
  if (!isAdmin(user)) throw errors.mustBeAdmin();
  return accessStreamById(realm, user, streamId, false);
}

/**
 * POST /streams/{stream_id}/delete_topic: deletes the topic newest first, one transaction per
 * batch, so a topic too big for one request still shrinks with every call. At least one batch
 * runs per call; once the time budget is spent with messages left, the answer is
 * `partially_completed` (SPEC §States, Topic messages). In a stream with protected history only
 * the messages the administrator received are deleted, as the public API does.
 */
export async function doDeleteTopic(
  realm: Realm,
  user: UserRow,
  streamId: number,
  topic: string,
  limits: DeleteTopicLimits,
): Promise<'complete' | 'partial'> {
  checkDeleteTopic(realm, user, streamId);
  const started = realm.clock.now();
  for (let batch = 0; ; batch++) {
    if (batch > 0 && realm.clock.now() - started >= limits.timeBudgetMs) {
      const left = nextTopicBatch(realm, user, checkDeleteTopic(realm, user, streamId), topic, 1);
      return left.length > 0 ? 'partial' : 'complete';
    }
    const deleted = await realm.transact((tx) => {
      const stream = checkDeleteTopic(tx.realm, user, streamId);
      const messages = nextTopicBatch(tx.realm, user, stream, topic, limits.batchSize);
      deleteMessagesTxn(tx, messages);
      return messages.length;
    });
    if (deleted < limits.batchSize) return 'complete';
  }
}

// Newest first along the messages_stream_topic index.
function nextTopicBatch(realm: Realm, user: UserRow, stream: StreamRow, topic: string, size: number): MessageRow[] {
  if (stream.history_public_to_subscribers === 1) {
    return realm
      .rows<MessageRow, [number, string]>(
        `SELECT * FROM messages WHERE stream_id = ? AND topic = ? COLLATE NOCASE ORDER BY id DESC ${sqlLimit(size)}`,
      )
      .all(stream.id, topic);
  }
  return realm
    .rows<MessageRow, [number, string, number, number]>(
      `SELECT m.* FROM messages m
       WHERE m.stream_id = ? AND m.topic = ? COLLATE NOCASE AND ${hasRowSql('m.id')} ORDER BY m.id DESC ${sqlLimit(size)}`,
    )
    .all(stream.id, topic, ...hasRowParams(user.id));
}
