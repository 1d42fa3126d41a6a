import type { Realm } from '../realm';

/**
 * A person's row of a message (that they received it, and their flags) lives in one of two
 * tables of the same shape (migration 21): the rows of a message to many people land in
 * user_messages_recent, and actors/recent-rows.ts moves them into user_messages in batches;
 * every other row is written to user_messages. Every read reads both; every update and delete
 * of a row runs on both.
 */
export const USER_MESSAGE_TABLES = ['user_messages', 'user_messages_recent'] as const;

/**
 * The table where the rows of a new message to `recipients` people are written: the small one
 * from `minRecipients` (realm.recentRowsMinRecipients). A message to fewer people does not go
 * there: its rows share few pages of either table (a message to a hundred people dirties about a
 * hundred pages wherever its rows go), and moving them later would touch user_messages_message
 * once per batch of the move too, that index being ordered by message and the move by person.
 * Measured at `mixed` heavy 2,000 with every row going there first: commits of the move up to
 * 80 ms, requests' p99 about 500 ms.
 */
export function newRowsTable(recipients: number, minRecipients: number): string {
  return recipients >= minRecipients ? 'user_messages_recent' : 'user_messages';
}

/**
 * Both tables as one, for the FROM clause of a query that names its alias's `message_id` among
 * its result columns when it orders by it: SQLite then runs the query once on each table and
 * merges the two ordered results (its query flattener: a UNION ALL subquery, first in the join,
 * outer query neither aggregate nor DISTINCT). Otherwise it reads every matching row of both
 * first: aggregates and LEFT JOINs read the tables one by one instead.
 */
export const ALL_USER_MESSAGES = `(SELECT user_id, message_id, flags FROM user_messages
  UNION ALL SELECT user_id, message_id, flags FROM user_messages_recent)`;

/**
 * True when the person has a row for the message `messageId` names: a primary-key lookup in
 * each table. Takes one `?` a table, each the person's ID.
 */
export function hasRowSql(messageId: string): string {
  return `(${USER_MESSAGE_TABLES.map((table) => `EXISTS (SELECT 1 FROM ${table} x WHERE x.user_id = ? AND x.message_id = ${messageId})`).join(' OR ')})`;
}

/** A person's ID once for each `?` of hasRowSql. */
export function hasRowParams(userId: number): [number, number] {
  return [userId, userId];
}

/**
 * The statement `sqlFor` writes for a table (an update or delete of rows), prepared for each
 * table once, as one write that runs on both: get it before a loop, run it in the loop.
 */
export function writeEachTable(realm: Realm, sqlFor: (table: string) => string): (...params: SqlParam[]) => void {
  const statements = USER_MESSAGE_TABLES.map((table) => realm.stmt(sqlFor(table)));
  return (...params) => {
    for (const statement of statements) statement.run(...params);
  };
}

type SqlParam = number | string | null;
