import { errors } from '../lib/errors';
import { FLAG_BIT, MESSAGE_FLAGS, type MessageFlag } from '../lib/flags';
import { FLAG_COLUMNS, selectRange, viewerFlags, type FlaggedRow, type RangeRequest } from '../queries/message-fetch';
import type { ResolvedNarrow } from '../queries/narrow-sql';
import type { UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';

// api-notes §c: the only flags users set themselves.
const EDITABLE_FLAGS: ReadonlySet<MessageFlag> = new Set(['read', 'starred', 'collapsed']);

/**
 * SPEC §Limits "flag-update range": the server may reduce num_before / num_after. We bound the
 * whole range at 5000 messages (num_before first), so one transaction stays short.
 */
export const MAX_FLAG_UPDATE_RANGE = 5000;

export interface FlagUpdate {
  op: 'add' | 'remove';
  flag: MessageFlag;
}

/** Validates `op` and `flag` (api-notes §b POST /messages/flags: the same errors). */
export function checkFlagsForNarrow(op: string, flag: string): FlagUpdate {
  if (!(MESSAGE_FLAGS as readonly string[]).includes(flag)) throw errors.invalidFlag(flag);
  const known = flag as MessageFlag;
  if (!EDITABLE_FLAGS.has(known)) throw errors.flagNotEditable(flag);
  if (op !== 'add' && op !== 'remove') throw errors.invalidFlagOperation(op);
  return { op, flag: known };
}

interface RangeRow extends FlaggedRow {
  stream_id: number | null;
  topic: string;
  recipient_id: number;
}

export type FlagsForNarrowResult = {
  processed_count: number;
  updated_count: number;
  first_processed_id: number | null;
  last_processed_id: number | null;
  found_oldest: boolean;
  found_newest: boolean;
};

/**
 * POST /messages/flags/narrow: selects the range and changes the flag where it differs, in one
 * transaction, and tells the user's clients which messages changed (`update_message_flags`).
 */
export function doUpdateFlagsForNarrow(
  realm: Realm,
  user: UserRow,
  narrow: ResolvedNarrow,
  update: FlagUpdate,
  request: RangeRequest,
): Promise<FlagsForNarrowResult> {
  const numBefore = Math.min(request.numBefore, MAX_FLAG_UPDATE_RANGE);
  const numAfter = Math.min(request.numAfter, MAX_FLAG_UPDATE_RANGE - numBefore);
  return realm.transact((tx) => {
    const range = selectRange<RangeRow>(realm, narrow, { ...request, numBefore, numAfter }, FLAG_COLUMNS);
    const changed = range.rows.filter((row) => setFlagTxn(tx, user.id, row, update));
    if (changed.length > 0) publishFlagsTxn(tx, user.id, update, changed);
    const first = range.rows[0];
    const last = range.rows[range.rows.length - 1];
    return {
      processed_count: range.rows.length,
      updated_count: changed.length,
      first_processed_id: first?.id ?? null,
      last_processed_id: last?.id ?? null,
      found_oldest: range.foundOldest,
      found_newest: range.foundNewest,
    };
  });
}

/** Sets or clears the flag on one row; true if it changed. */
function setFlagTxn(tx: Txn, userId: number, row: RangeRow, update: FlagUpdate): boolean {
  const bit = FLAG_BIT[update.flag];
  const current = viewerFlags(row);
  const wanted = update.op === 'add' ? current | bit : current & ~bit;
  if (wanted === current) return false;
  if (row.user_flags === null) {
    // Stream history without a row: starring it creates a historical row (api-notes §b); the
    // public API does not mark history unread, nor collapse it.
    if (update.op !== 'add' || update.flag !== 'starred') return false;
    tx.realm.stmt('INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)').run(userId, row.id, wanted);
    return true;
  }
  tx.realm.stmt('UPDATE user_messages SET flags = ? WHERE user_id = ? AND message_id = ?').run(wanted, userId, row.id);
  return true;
}

/** api-notes §d `update_message_flags`, to the acting user's clients. */
function publishFlagsTxn(tx: Txn, userId: number, update: FlagUpdate, changed: readonly RangeRow[]): void {
  const event: { type: string } & Record<string, unknown> = {
    type: 'update_message_flags',
    op: update.op,
    operation: update.op, // deprecated duplicate of `op`
    flag: update.flag,
    messages: changed.map((row) => row.id),
    all: false,
  };
  // Marking unread says where each message lives, so clients can count it (api-notes §d).
  if (update.op === 'remove' && update.flag === 'read') {
    event['message_details'] = Object.fromEntries(changed.map((row) => [String(row.id), messageDetails(tx, userId, row)]));
  }
  tx.publish(event, [userId]);
}

function messageDetails(tx: Txn, userId: number, row: RangeRow): Record<string, unknown> {
  const flags = viewerFlags(row);
  const details: Record<string, unknown> = {};
  if (row.stream_id !== null) {
    const muted = tx.realm
      .stmt('SELECT is_muted FROM subscriptions WHERE user_id = ? AND stream_id = ?')
      .get(userId, row.stream_id) as { is_muted: number } | undefined;
    Object.assign(details, { type: 'stream', stream_id: row.stream_id, topic: row.topic, unmuted_stream_msg: muted?.is_muted !== 1 });
  } else {
    const key = (tx.realm.stmt('SELECT direct_key FROM recipients WHERE id = ?').get(row.recipient_id) as { direct_key: string })
      .direct_key;
    const others = key.split(',').map(Number).filter((id) => id !== userId);
    details['type'] = 'private';
    if (others.length > 1) details['user_ids'] = others;
  }
  if ((flags & (FLAG_BIT.mentioned | FLAG_BIT.wildcard_mentioned)) !== 0) details['mentioned'] = true;
  return details;
}
