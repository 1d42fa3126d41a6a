/**
 * The whole-conversation read endpoints: POST /mark_all_as_read, /mark_stream_as_read and
 * /mark_topic_as_read (api-notes §b). Unread rows are found through the partial index
 * user_messages_unread (migration "reactions: unread messages"), never by scanning the user's rows.
 */
import { errors } from '../lib/errors';
import { FLAG_BIT } from '../lib/flags';
import { hasMessageInTopic, unreadMessageIds } from '../queries/unread';
import type { UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { accessStreamById } from '../queries/stream-access';
import { writeEachTable } from '../queries/user-message-rows';

const setReadBit = (table: string) => `UPDATE ${table} SET flags = flags | ? WHERE user_id = ? AND message_id = ?`;

function markReadTxn(tx: Txn, user: UserRow, ids: number[], all: boolean): void {
  const setRead = writeEachTable(tx.realm, setReadBit);
  for (const id of ids) setRead(FLAG_BIT.read, user.id, id);
  // openapi update_message_flags: when `all` is true the `messages` array is empty.
  tx.publish({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: all ? [] : ids, all }, [user.id]);
}

/** POST /mark_all_as_read */
export function doMarkAllAsRead(realm: Realm, user: UserRow): Promise<void> {
  return realm.transact((tx) => markReadTxn(tx, user, unreadMessageIds(tx.realm, user.id, {}), true));
}

/** POST /mark_stream_as_read */
export function doMarkStreamAsRead(realm: Realm, user: UserRow, streamId: number): Promise<void> {
  return realm.transact((tx) => {
    const stream = accessStreamById(tx.realm, user, streamId, false);
    markReadTxn(tx, user, unreadMessageIds(tx.realm, user.id, { recipientId: stream.recipient_id }), false);
  });
}

/** POST /mark_topic_as_read: a topic the user has no message in is an error (api-notes §b). */
export function doMarkTopicAsRead(realm: Realm, user: UserRow, streamId: number, topic: string): Promise<void> {
  return realm.transact((tx) => {
    const stream = accessStreamById(tx.realm, user, streamId, false);
    if (topic !== '' && !hasMessageInTopic(tx.realm, user.id, stream.id, topic)) throw errors.noSuchTopic(topic);
    // An empty topic name marks the whole stream, as the public API does.
    const where = topic === '' ? { recipientId: stream.recipient_id } : { recipientId: stream.recipient_id, topic };
    markReadTxn(tx, user, unreadMessageIds(tx.realm, user.id, where), false);
  });
}
