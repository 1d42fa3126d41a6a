import type { Realm } from '../realm';

/**
 * A person's row of a message (that they received it, and their flags) lives in one of two
 * tables of the same shape (migration 21): new rows land in user_messages_recent, and
 * actors/recent-rows.ts moves them into user_messages in batches. Every read reads both; every
 * update and delete of a row runs on both.
 */
export const USER_MESSAGE_TABLES = ['user_messages', 'user_messages_recent'] as const;

/** The table new rows are written to. */
export const NEW_ROWS_TABLE = 'user_messages_recent';

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

/** Runs the statement `sqlFor` writes for a table on each table: an update or delete of rows. */
export function writeEachTable(realm: Realm, sqlFor: (table: string) => string, ...params: SqlParam[]): void {
  for (const table of USER_MESSAGE_TABLES) realm.stmt(sqlFor(table)).run(...params);
}

type SqlParam = number | string | null;
