import { sqlLimit, sqlOffset } from '../lib/sql-limit';
import type { Realm } from '../realm';

/** Rows moved in one transaction: a few milliseconds of the realm's thread. */
export const RECENT_ROWS_PER_BATCH = 1_000;

/**
 * Moves the rows of some of the people who have rows in user_messages_recent into
 * user_messages (migration 21), in one transaction: every person after `afterUserId` up to
 * and including the one holding the `maxRows`-th row, and of those only rows of messages up to
 * `throughMessageId`. A row that has just arrived stays a while where marking it read is cheap.
 * Returns the last person moved, or null when none is left. No events: what a client sees
 * does not change.
 */
export function doMoveRecentRows(realm: Realm, afterUserId: number, throughMessageId: number, maxRows: number): Promise<number | null> {
  return realm.transact((tx) => {
    const db = tx.realm;
    const first = db
      .rows<{ user_id: number }, [number, number]>(
        'SELECT user_id FROM user_messages_recent WHERE user_id > ? AND message_id <= ? ORDER BY user_id LIMIT 1',
      )
      .get(afterUserId, throughMessageId);
    if (!first) return null;
    // The person at the batch's bound: the maxRows-th row after the first, or the last row.
    const bound =
      db
        .rows<{ user_id: number }, [number]>(
          `SELECT user_id FROM user_messages_recent WHERE user_id >= ? ORDER BY user_id ${sqlLimit(1)} ${sqlOffset(maxRows - 1)}`,
        )
        .get(first.user_id)?.user_id ?? db.oneRow<{ user_id: number }>('SELECT max(user_id) AS user_id FROM user_messages_recent').user_id;
    db.stmt(
      `INSERT INTO user_messages (user_id, message_id, flags)
       SELECT user_id, message_id, flags FROM user_messages_recent WHERE user_id BETWEEN ? AND ? AND message_id <= ?`,
    ).run(first.user_id, bound, throughMessageId);
    db.stmt('DELETE FROM user_messages_recent WHERE user_id BETWEEN ? AND ? AND message_id <= ?').run(
      first.user_id,
      bound,
      throughMessageId,
    );
    return bound;
  });
}

/**
 * Moves every row of messages up to `throughMessageId`, batch by batch, each batch its own
 * transaction; stops early when `goOn` says so (the realm is closing).
 */
export async function doMoveRecentRowsThrough(
  realm: Realm,
  throughMessageId: number,
  maxRows: number,
  goOn: () => boolean = () => true,
): Promise<void> {
  let after = 0;
  while (goOn()) {
    const last = await doMoveRecentRows(realm, after, throughMessageId, maxRows);
    if (last === null) return;
    after = last;
  }
}
