/**
 * A LIMIT clause with its row count written into the SQL. Bound as a parameter (`LIMIT ?`),
 * the statement is compiled again on every run: SQLite lets the limit's value steer the plan,
 * so it marks the statement stale whenever that parameter is bound, and better-sqlite3 binds
 * every parameter on every run. Measured on a page of a topic: 4,123 parses in 4,000 runs and
 * 22.5 µs a run with `LIMIT ?`, none and 4.1 µs with the count written in.
 */
export function sqlLimit(count: number): string {
  if (!Number.isSafeInteger(count) || count < -1) throw new Error(`not a row count: ${count}`);
  return `LIMIT ${count}`;
}

/** An OFFSET clause with its row count written into the SQL, as sqlLimit's and for its reason. */
export function sqlOffset(count: number): string {
  if (!Number.isSafeInteger(count) || count < 0) throw new Error(`not a row count: ${count}`);
  return `OFFSET ${count}`;
}

// Row counts a client may ask for (GET /messages: 1 to 5,001 with the extra row that tells
// whether more lie beyond), on the values clients use.
const LIMIT_STEPS = [1, 2, 11, 21, 51, 101, 201, 501, 1001, 2001, 5001];

/**
 * The row count to write into a statement for `count` rows a client chose: the next of a few
 * steps, so those statements stay few however many counts clients send; the caller keeps the
 * first `count` rows of what it reads.
 */
export function steppedLimit(count: number): number {
  return LIMIT_STEPS.find((step) => step >= count) ?? count;
}
