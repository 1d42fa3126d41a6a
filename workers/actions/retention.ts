import { expiredMessages } from '../queries/retention';
import type { MessageRow } from '../queries/messages';
import type { Realm } from '../realm';
import { deleteMessagesTxn } from './message-delete';

/**
 * Deletes one batch of expired messages in one transaction (SPEC Stream message_retention_days)
 * and returns how many went. deleteMessagesTxn takes one conversation at a time, so the batch
 * goes topic by topic: one `delete_message` event per stream topic.
 */
export function doDeleteExpiredBatch(realm: Realm, nowSeconds: number, batchSize: number): Promise<number> {
  return realm.transact((tx) => {
    const messages = expiredMessages(tx.realm, nowSeconds, batchSize);
    const byConversation = new Map<string, MessageRow[]>();
    for (const message of messages) {
      const key = `${message.stream_id ?? ''}\u0000${message.topic.toLowerCase()}`;
      const group = byConversation.get(key);
      if (group) group.push(message);
      else byConversation.set(key, [message]);
    }
    for (const group of byConversation.values()) deleteMessagesTxn(tx, group);
    return messages.length;
  });
}
