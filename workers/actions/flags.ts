/**
 * POST /messages/flags: personal flags on listed message IDs (api-notes §b "POST /messages/flags",
 * event `update_message_flags` api-notes §d). `applyFlagChangeTxn` is the reusable core: other
 * flag endpoints (flags on a narrow) can run it on their own list of IDs.
 */
import { errors } from '../lib/errors';
import { FLAG_BIT, MESSAGE_FLAGS, type MessageFlag, HISTORICAL_FLAGS } from '../lib/flags';
import { accessMessage, messageById, userFlags } from '../queries/messages';
import { isSubscribed } from '../queries/streams';
import { unreadMessageDetails } from '../queries/unread';
import type { UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';
import type { Published } from '../events/published';
import { writeEachTable } from '../queries/user-message-rows';

/** api-notes Summary 14: the only flags a user may change. */
export const EDITABLE_FLAGS: readonly MessageFlag[] = ['read', 'starred', 'collapsed'];

/** Flags the public API still names but never lets users set (api-notes §b). */
const LEGACY_FLAGS = new Set(['summarize_in_home', 'summarize_in_stream', 'force_expand', 'force_collapse']);

export type FlagOperation = 'add' | 'remove';

export interface FlagChange {
  op: FlagOperation;
  flag: MessageFlag;
}

/** Validates `op` and `flag` as the public API does: unknown flag, then not editable, then op. */
export function checkFlagChange(op: string, flag: string): FlagChange {
  const known = (MESSAGE_FLAGS as readonly string[]).includes(flag);
  if (!known && !LEGACY_FLAGS.has(flag)) throw errors.invalidFlag(flag);
  if (!known || !EDITABLE_FLAGS.includes(flag as MessageFlag)) throw errors.flagNotEditable(flag);
  if (op !== 'add' && op !== 'remove') throw errors.invalidFlagOperation(op);
  return { op, flag: flag as MessageFlag };
}

/** A per-user row for a message the user reads as stream history (api-notes §b reactions, flags). */
export function createHistoricalRowTxn(tx: Txn, userId: number, messageId: number, flags = HISTORICAL_FLAGS): void {
  tx.realm.stmt('INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)').run(userId, messageId, flags);
}

/**
 * Sets or clears `flag` on `messageIds` for `user`, inside the caller's transaction, and queues the
 * `update_message_flags` event to the user. Messages without a per-user row must be accessible
 * (else `Invalid message(s)`) and get a historical row when the change differs from what history
 * implies. Marking unread skips stream messages of streams the user is not subscribed to
 * (api-notes §b). Returns the IDs whose flag really changed, in the order given.
 */
export function applyFlagChangeTxn(tx: Txn, user: UserRow, change: FlagChange, messageIds: readonly number[]): number[] {
  const realm = tx.realm;
  const bit = FLAG_BIT[change.flag];
  const adding = change.op === 'add';
  const markingUnread = change.flag === 'read' && !adding;
  const changed: number[] = [];
  const update = writeEachTable(
    realm,
    adding
      ? (table) => `UPDATE ${table} SET flags = flags | ? WHERE user_id = ? AND message_id = ?`
      : (table) => `UPDATE ${table} SET flags = flags & ~? WHERE user_id = ? AND message_id = ?`,
  );
  for (const messageId of new Set(messageIds)) {
    if (markingUnread && inUnsubscribedStream(realm, user.id, messageId)) continue;
    const flags = userFlags(realm, user.id, messageId);
    if (flags === undefined) accessMessage(realm, user, messageId);
    const current = flags ?? HISTORICAL_FLAGS;
    if (((current & bit) !== 0) === adding) continue;
    if (flags === undefined) createHistoricalRowTxn(tx, user.id, messageId, adding ? current | bit : current & ~bit);
    else update(bit, user.id, messageId);
    changed.push(messageId);
  }
  // Only changes are news: a request that changed nothing tells no client anything.
  if (changed.length === 0) return changed;
  const fields = { type: 'update_message_flags' as const, flag: change.flag, messages: changed, all: false };
  const event: Published<'update_message_flags'> = adding
    ? { ...fields, op: 'add', operation: 'add' }
    : {
        ...fields,
        op: 'remove',
        operation: 'remove',
        ...(markingUnread ? { message_details: unreadMessageDetails(realm, user.id, changed) } : {}),
      };
  tx.publish(event, [user.id]);
  return changed;
}

function inUnsubscribedStream(realm: Realm, userId: number, messageId: number): boolean {
  const message = messageById(realm, messageId);
  return message !== undefined && message.stream_id !== null && !isSubscribed(realm, userId, message.stream_id);
}

/** POST /messages/flags; the response echoes the IDs sent (api-notes §b). */
export function doUpdateMessageFlags(realm: Realm, user: UserRow, op: string, flag: string, messageIds: number[]): Promise<number[]> {
  const change = checkFlagChange(op, flag);
  return realm.transact((tx) => applyFlagChangeTxn(tx, user, change, messageIds));
}
