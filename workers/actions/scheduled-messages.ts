import { errors } from '../lib/errors';
import { epochSeconds } from '../lib/clock';
import {
  RECIPIENT_KIND,
  scheduledMessageById,
  scheduledMessageObject,
  storedScheduledMessage,
  type ScheduledMessageRow,
} from '../queries/scheduled-messages';
import type { StreamRow } from '../queries/streams';
import type { UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { checkStreamPost, normalizeContent, normalizeTopic, resolveDirectRecipients, resolveStream } from './messages';
import { renderMessage } from './render-message';

/** `type` as the wire has it; `private` is the deprecated name of `direct` (SPEC §Versioning 4). */
export type ScheduledType = 'stream' | 'direct' | 'private';
/** A stream ID, or a list of user IDs (SPEC POST /scheduled_messages). */
export type ScheduledTo = number | number[];

export interface ScheduledTarget {
  kind: (typeof RECIPIENT_KIND)[keyof typeof RECIPIENT_KIND];
  stream: StreamRow | null;
  /** Direct: the other members' IDs, sorted (just the sender for a message to oneself). */
  directTo: number[];
  topic: string;
}

export interface NewScheduledMessage {
  type: ScheduledType;
  to: ScheduledTo;
  content: string;
  topic: string | undefined;
  scheduledTimestamp: number;
  client: string;
}

export interface ScheduledMessageChanges {
  type: ScheduledType | undefined;
  to: ScheduledTo | undefined;
  content: string | undefined;
  topic: string | undefined;
  scheduledTimestamp: number | undefined;
}

/** Validates a target with the same checks as sending now (actions/messages.ts). */
export function checkScheduledTarget(
  realm: Realm,
  sender: UserRow,
  type: ScheduledType,
  to: ScheduledTo,
  topic: string | undefined,
): ScheduledTarget {
  const ids = Array.isArray(to) ? to : [to];
  if (type === 'stream') {
    const stream = resolveStream(realm, ids);
    const normalizedTopic = normalizeTopic(topic);
    checkStreamPost(realm, sender, stream);
    return { kind: RECIPIENT_KIND.STREAM, stream, directTo: [], topic: normalizedTopic };
  }
  const members = resolveDirectRecipients(realm, sender, ids);
  const others = members
    .filter((member) => member.id !== sender.id)
    .map((member) => member.id)
    .sort((a, b) => a - b);
  return { kind: RECIPIENT_KIND.DIRECT, stream: null, directTo: others.length > 0 ? others : [sender.id], topic: '' };
}

export function checkDeliveryTime(realm: Realm, scheduledTimestamp: number): void {
  if (scheduledTimestamp <= epochSeconds(realm.clock)) throw errors.scheduledTimeNotInFuture();
}

/** The sender's own undelivered scheduled message, or the API's 404 (api-notes §b, §f). */
export function ownPendingScheduledMessage(realm: Realm, sender: UserRow, id: number): ScheduledMessageRow {
  const row = scheduledMessageById(realm, id);
  if (!row || row.sender_id !== sender.id || row.delivered === 1) throw errors.scheduledMessageDoesNotExist();
  return row;
}

/** POST /scheduled_messages: validates like sending now, stores, queues op `add` to the sender. */
export async function doCreateScheduledMessage(realm: Realm, sender: UserRow, request: NewScheduledMessage): Promise<number> {
  const content = normalizeContent(request.content);
  const target = checkScheduledTarget(realm, sender, request.type, request.to, request.topic);
  checkDeliveryTime(realm, request.scheduledTimestamp);
  const rendered = await renderMessage(realm, sender, content, target.topic);
  return realm.transact((tx) => {
    const id = Number(
      tx.realm
        .stmt(
          `INSERT INTO scheduled_messages (sender_id, recipient_kind, stream_id, direct_to, topic, content,
             rendered_content, scheduled_timestamp, client, date_created)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          sender.id,
          target.kind,
          target.stream?.id ?? null,
          target.kind === RECIPIENT_KIND.DIRECT ? JSON.stringify(target.directTo) : null,
          target.topic,
          content,
          rendered.html,
          request.scheduledTimestamp,
          request.client,
          epochSeconds(tx.realm.clock),
        ).lastInsertRowid,
    );
    const row = storedScheduledMessage(tx.realm, id);
    tx.publish({ type: 'scheduled_messages', op: 'add', scheduled_messages: [scheduledMessageObject(row)] }, [sender.id]);
    return id;
  });
}

/** PATCH /scheduled_messages/{id} argument rules (api-notes §b), checked before any lookup. */
export function checkScheduledMessageChanges(realm: Realm, changes: ScheduledMessageChanges): void {
  const { type, to, content, topic, scheduledTimestamp } = changes;
  if (type === undefined && to === undefined && content === undefined && topic === undefined && scheduledTimestamp === undefined) {
    throw errors.badRequest('Nothing to change');
  }
  if (type !== undefined && to === undefined) throw errors.badRequest('Recipient required when updating type of scheduled message.');
  if (type === 'stream' && topic === undefined) {
    throw errors.badRequest('Topic required when updating scheduled message type to stream.');
  }
  if (scheduledTimestamp !== undefined) checkDeliveryTime(realm, scheduledTimestamp);
}

function currentTo(row: ScheduledMessageRow): ScheduledTo {
  return row.recipient_kind === RECIPIENT_KIND.STREAM ? (row.stream_id as number) : (JSON.parse(row.direct_to ?? '[]') as number[]);
}

/** PATCH /scheduled_messages/{id} (feature level 184): queues op `update` to the sender. */
export async function doUpdateScheduledMessage(realm: Realm, sender: UserRow, id: number, changes: ScheduledMessageChanges): Promise<void> {
  checkScheduledMessageChanges(realm, changes);
  const existing = ownPendingScheduledMessage(realm, sender, id);
  // A message the server failed to send goes out again only at a new time (openapi).
  if (existing.failed === 1 && changes.scheduledTimestamp === undefined) throw errors.scheduledTimeNotInFuture();
  const type: ScheduledType = changes.type ?? (existing.recipient_kind === RECIPIENT_KIND.STREAM ? 'stream' : 'direct');
  // The target is re-validated whenever any part of it changes, as creating it was.
  const target = checkScheduledTarget(
    realm,
    sender,
    type,
    changes.to ?? currentTo(existing),
    type === 'stream' ? (changes.topic ?? existing.topic) : undefined,
  );
  const content = changes.content === undefined ? existing.content : normalizeContent(changes.content);
  const renderedHtml =
    changes.content === undefined ? existing.rendered_content : (await renderMessage(realm, sender, content, target.topic)).html;
  const scheduledTimestamp = changes.scheduledTimestamp ?? existing.scheduled_timestamp;
  await realm.transact((tx) => {
    // Re-checked in the transaction: a delivery or a delete may have landed while rendering.
    ownPendingScheduledMessage(tx.realm, sender, id);
    tx.realm
      .stmt(
        `UPDATE scheduled_messages SET recipient_kind = ?, stream_id = ?, direct_to = ?, topic = ?, content = ?,
           rendered_content = ?, scheduled_timestamp = ?, failed = 0, failure_message = NULL
         WHERE id = ?`,
      )
      .run(
        target.kind,
        target.stream?.id ?? null,
        target.kind === RECIPIENT_KIND.DIRECT ? JSON.stringify(target.directTo) : null,
        target.topic,
        content,
        renderedHtml,
        scheduledTimestamp,
        id,
      );
    publishUpdateTxn(tx, id);
  });
}

/** DELETE /scheduled_messages/{id}: cancels it and queues op `remove` to the sender. */
export async function doDeleteScheduledMessage(realm: Realm, sender: UserRow, id: number): Promise<void> {
  await realm.transact((tx) => {
    ownPendingScheduledMessage(tx.realm, sender, id);
    tx.realm.stmt('DELETE FROM scheduled_messages WHERE id = ?').run(id);
    tx.publish({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, [sender.id]);
  });
}

/** Queues op `update` with the row as stored now, to its sender only (api-notes §d). */
export function publishUpdateTxn(tx: Txn, id: number): void {
  const row = storedScheduledMessage(tx.realm, id);
  tx.publish({ type: 'scheduled_messages', op: 'update', scheduled_message: scheduledMessageObject(row) }, [row.sender_id]);
}
