/**
 * A row the caller knows exists (it read it again inside its own transaction, after a write):
 * a missing one is a bug in the server, not a client's error.
 */
export function storedRow<Row>(row: Row | undefined, what: string): Row {
  if (row === undefined) throw new Error(`${what} vanished inside its transaction`);
  return row;
}
