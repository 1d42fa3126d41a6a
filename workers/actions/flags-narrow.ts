import { selectRange, type RangeRequest } from '../queries/message-fetch';
import type { ResolvedNarrow } from '../queries/narrow-sql';
import type { UserRow } from '../queries/users';
import type { Realm } from '../realm';
import { applyFlagChangeTxn, type FlagChange } from './flags';

/**
 * SPEC §Limits "flag-update range": the server may reduce num_before / num_after. We bound the
 * whole range at 5000 messages (num_before first), so one transaction stays short.
 */
export const MAX_FLAG_UPDATE_RANGE = 5000;

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
 * transaction, through the same core as POST /messages/flags (which also queues the
 * `update_message_flags` event).
 */
export function doUpdateFlagsForNarrow(
  realm: Realm,
  user: UserRow,
  narrow: ResolvedNarrow,
  change: FlagChange,
  request: RangeRequest,
): Promise<FlagsForNarrowResult> {
  const numBefore = Math.min(request.numBefore, MAX_FLAG_UPDATE_RANGE);
  const numAfter = Math.min(request.numAfter, MAX_FLAG_UPDATE_RANGE - numBefore);
  return realm.transact((tx) => {
    const range = selectRange(realm, narrow, { ...request, numBefore, numAfter });
    const changed = applyFlagChangeTxn(
      tx,
      user,
      change,
      range.rows.map((row) => row.id),
    );
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
