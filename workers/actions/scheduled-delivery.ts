import { ApiError, errors } from '../lib/errors';
import { RECIPIENT_KIND, scheduledMessageById, type ScheduledMessageRow } from '../queries/scheduled-messages';
import type { StreamRow } from '../queries/streams';
import { userById, type UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { checkStreamPost, insertMessageTxn, resolveDirectRecipients, resolveStream } from './messages';
import { renderMessage, renderMessageNow, type RenderedMessage } from './render-message';
import { publishUpdateTxn } from './scheduled-messages';

export type DeliveryOutcome = 'sent' | 'failed' | 'skipped';

function isDue(row: ScheduledMessageRow | undefined, nowSeconds: number): row is ScheduledMessageRow {
  return row !== undefined && row.delivered === 0 && row.failed === 0 && row.scheduled_timestamp <= nowSeconds;
}

/**
 * Sends a due scheduled message as a normal message with a new ID (SPEC States "Scheduled
 * message"), through the same path as POST /messages. The message, the row marked delivered
 * and the `remove` event share ONE transaction, so a crash can neither lose nor repeat a
 * delivery. If sending is no longer allowed, the row is marked `failed` with the reason and
 * its sender gets op `update` instead (openapi ScheduledMessage.failed).
 */
export async function doDeliverScheduledMessage(realm: Realm, id: number, nowSeconds: number): Promise<DeliveryOutcome> {
  const row = scheduledMessageById(realm, id);
  if (!isDue(row, nowSeconds)) return 'skipped';
  const sender = userById(realm, row.sender_id);
  // Rendered outside the transaction (it may go to the render pool), at delivery time so
  // mentions and links resolve against the realm as it is now.
  const rendered = sender ? await renderMessage(realm, sender, row.content, row.topic) : null;
  return realm.transact((tx) => deliverTxn(tx, id, nowSeconds, { source: row.content, rendered }));
}

function deliverTxn(tx: Txn, id: number, nowSeconds: number, early: { source: string; rendered: RenderedMessage | null }): DeliveryOutcome {
  const realm = tx.realm;
  // Re-read: an edit, a delete or another delivery may have committed while we rendered.
  const row = scheduledMessageById(realm, id);
  if (!isDue(row, nowSeconds)) return 'skipped';
  const sender = userById(realm, row.sender_id);
  let stream: StreamRow | null = null;
  let directMembers: UserRow[] = [];
  try {
    if (!sender?.is_active) throw errors.userDeactivated();
    if (row.recipient_kind === RECIPIENT_KIND.STREAM) {
      stream = resolveStream(realm, [row.stream_id as number]);
      checkStreamPost(realm, sender, stream);
    } else {
      directMembers = resolveDirectRecipients(realm, sender, JSON.parse(row.direct_to ?? '[]') as number[]);
    }
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    realm.stmt('UPDATE scheduled_messages SET failed = 1, failure_message = ? WHERE id = ?').run(err.message, id);
    publishUpdateTxn(tx, id);
    return 'failed';
  }
  // The content changed after the early render (rare): render it again here, synchronously.
  const rendered = early.rendered && early.source === row.content ? early.rendered : renderMessageNow(realm, row.content, row.topic);
  const messageId = insertMessageTxn(tx, {
    sender,
    stream,
    directMembers,
    topic: row.topic,
    content: row.content,
    rendered,
    client: row.client,
    queueId: null,
    localId: null,
  });
  realm.stmt('UPDATE scheduled_messages SET delivered = 1, delivered_message_id = ? WHERE id = ?').run(messageId, id);
  tx.publish({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, [sender.id]);
  return 'sent';
}
