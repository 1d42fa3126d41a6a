import type { Realm } from '../realm';
import { highlightHtml, highlightTopic } from '../lib/search-highlight';
import type { MessageRow } from './messages';
import { HISTORICAL_FLAGS } from '../lib/flags';
import { sqlLimit, steppedLimit } from '../lib/sql-limit';
import { mutedStream, narrowSql, topicWithPolicy, type NarrowSql, type ResolvedNarrow, type SqlValue } from './narrow-sql';

/** api-notes §b: `newest` resolves to this ID, larger than any message ID. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

export type Anchor = number | 'newest' | 'oldest' | 'first_unread';

export interface RangeRequest {
  anchor: Anchor;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
}

export interface RangeResult {
  rows: RangeRow[];
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}

/** Columns of a full message row (a `MessageRow`, built by `messageRowFromArray`). */
export const FULL_COLUMNS =
  'm.id, m.sender_id, m.recipient_id, m.stream_id, m.topic, m.content, m.rendered_content, m.date_sent, m.client, m.is_me_message, m.topic_links, m.last_edit_timestamp, m.edit_history, m.version';

export interface RangeRow {
  id: number;
  version: number;
  /** The viewer's flags; null when they have no row (stream history). */
  user_flags: number | null;
}

/** A row of FULL_COLUMNS read as an array (Realm.rawStmt), column by column. */
export type MessageColumns = [
  id: number,
  sender_id: number,
  recipient_id: number,
  stream_id: number | null,
  topic: string,
  content: string,
  rendered_content: string,
  date_sent: number,
  client: string,
  is_me_message: number,
  topic_links: string,
  last_edit_timestamp: number | null,
  edit_history: string | null,
  version: number,
];

/**
 * A row of FULL_COLUMNS read as an array: better-sqlite3 building a 14-column object costs as
 * much as the indexed read itself (measured: 248 vs 127 µs for 100 rows).
 */
export function messageRowFromArray(v: MessageColumns): MessageRow {
  return {
    id: v[0],
    sender_id: v[1],
    recipient_id: v[2],
    stream_id: v[3],
    topic: v[4],
    content: v[5],
    rendered_content: v[6],
    date_sent: v[7],
    client: v[8],
    is_me_message: v[9],
    topic_links: v[10],
    last_edit_timestamp: v[11],
    edit_history: v[12],
    version: v[13],
  };
}

/**
 * The rows of a narrow around an anchor (api-notes §b "Selection"): the `numBefore` highest IDs
 * below it, the anchor itself, the `numAfter` lowest above it. Each side reads a row more than
 * asked, so found_oldest / found_newest say whether anything lies beyond.
 */
export function selectRange(realm: Realm, narrow: ResolvedNarrow, request: RangeRequest): RangeResult {
  const sql = narrowSql(narrow);
  const statements = rangeStatements(sql, narrow);
  const anchor = resolveAnchor(realm, statements, request.anchor);
  const read = (statement: string, ...params: SqlValue[]): RangeRow[] =>
    // group_concat yields one row, its value null when nothing matched.
    unpackRange(realm.rawStmt<[packed: string | null], SqlValue[]>(statement).get(...params)?.[0] ?? null);
  // Each side reads at least one row more than asked (a stepped limit, lib/sql-limit.ts): the
  // nearest rows are kept below, and any beyond them tell that more lie there.
  const before = read(statements.before(steppedLimit(request.numBefore + 1)), ...sql.params, anchor).sort(newestFirst);
  // No message has the ID `newest` stands for: neither it nor anything after needs reading.
  const beyondAll = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  const [at] = beyondAll ? [] : read(statements.at, ...sql.params, anchor);
  const after = beyondAll ? [] : read(statements.after(steppedLimit(request.numAfter + 1)), ...sql.params, anchor).sort(oldestFirst);
  const rows = before.slice(0, request.numBefore).reverse();
  if (at && request.includeAnchor) rows.push(at);
  rows.push(...after.slice(0, request.numAfter));
  return {
    rows,
    anchor,
    foundAnchor: at !== undefined && request.includeAnchor,
    foundOldest: before.length <= request.numBefore,
    foundNewest: after.length <= request.numAfter,
  };
}

/** The rows of a packed range, in no particular order (group_concat promises none). */
function unpackRange(text: string | null): RangeRow[] {
  if (text === null) return [];
  const fields = text.split(',');
  const rows: RangeRow[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const flags = fields[i + 2] as string;
    rows.push({ id: Number(fields[i]), version: Number(fields[i + 1]), user_flags: flags === '' ? null : Number(flags) });
  }
  return rows;
}

const newestFirst = (a: RangeRow, b: RangeRow): number => b.id - a.id;
const oldestFirst = (a: RangeRow, b: RangeRow): number => a.id - b.id;

export interface RangeStatements {
  /** Packed rows (`unpackRange`), at most `limit`. Parameters: the narrow's, then the anchor. */
  before: (limit: number) => string;
  /** Parameters: the narrow's, then the anchor. */
  at: string;
  after: (limit: number) => string;
  /** Parameters: `firstUnreadParams`. */
  firstUnread: string;
  firstUnreadParams: SqlValue[];
}

/**
 * A range's rows packed by SQLite into one string, "id,version,flags,…": better-sqlite3 handing
 * a hundred small rows to JavaScript costs more than SQLite reading them (measured on 100 rows
 * of a topic: 72 µs as arrays, 58 µs packed and parsed). IDs and versions are all a page needs
 * to find its cached message objects, and a flag update only the IDs; the stream and topic
 * indexes end in (id, version) (migration 16), so a stream's history is read from them alone.
 */
function packed(select: string): string {
  return `SELECT group_concat(id || ',' || version || ',' || ifnull(user_flags, ''), ',') FROM (${select})`;
}

/** The SQL of each read around an anchor; exported for the query-plan test. */
export function rangeStatements(sql: NarrowSql, narrow: ResolvedNarrow): RangeStatements {
  const select = `SELECT ${sql.idColumn} AS id, m.version, ${sql.rowFlags} AS user_flags FROM ${sql.from} WHERE ${sql.where.join(' AND ')}`;
  // api-notes §c first_unread: the oldest unread match, leaving out muted streams unless the
  // narrow names a stream. Unread messages always have the viewer's row, so this reads only
  // the viewer's unread rows, even for a stream-history narrow.
  const unread = narrowSql({ ...narrow, includeHistory: false }, true);
  const unreadWhere = [...unread.where];
  const firstUnreadParams: SqlValue[] = [...unread.params];
  if (!narrow.terms.some((term) => term.kind === 'stream' && !term.negated)) {
    // stream-prefs: an unmuted topic of a muted stream counts (SPEC Topic visibility policy).
    unreadWhere.push(`NOT coalesce(${mutedStream} AND NOT ${topicWithPolicy(2)}, 0)`);
    firstUnreadParams.push(narrow.viewerId, narrow.viewerId);
  }
  // stream-prefs: muted topics are skipped too, unless the narrow names the topic (api-notes §c).
  if (!narrow.terms.some((term) => term.kind === 'topic' && !term.negated)) {
    unreadWhere.push(`NOT coalesce(${topicWithPolicy(1)}, 0)`);
    firstUnreadParams.push(narrow.viewerId);
  }
  return {
    before: (limit) => packed(`${select} AND ${sql.idColumn} < ? ORDER BY ${sql.idColumn} DESC ${sqlLimit(limit)}`),
    // The anchor row by the message's own key: on a search narrow, `f.rowid = ?` beside MATCH
    // made FTS5 walk every match (205 ms on a million messages; `m.id = ?`: 0.03 ms).
    at: packed(`${select} AND m.id = ?`),
    after: (limit) => packed(`${select} AND ${sql.idColumn} > ? ORDER BY ${sql.idColumn} ASC ${sqlLimit(limit)}`),
    firstUnread: `SELECT ${unread.idColumn} AS id FROM ${unread.from} WHERE ${unreadWhere.join(' AND ')} ORDER BY ${unread.idColumn} ASC LIMIT 1`,
    firstUnreadParams,
  };
}

function resolveAnchor(realm: Realm, statements: RangeStatements, anchor: Anchor): number {
  if (anchor === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (anchor === 'oldest') return 0;
  if (anchor !== 'first_unread') return anchor;
  const row = realm.rows<{ id: number }, SqlValue[]>(statements.firstUnread).get(...statements.firstUnreadParams);
  // None unread: as `newest` (api-notes §c).
  return row?.id ?? LARGER_THAN_MAX_MESSAGE_ID;
}

/** The flags the viewer sees on a selected row (api-notes §b: history is read + historical). */
export function viewerFlags(row: RangeRow): number {
  return row.user_flags ?? HISTORICAL_FLAGS;
}

/** `match_content` and `match_subject` (api-notes §b). */
export function searchMatch(row: MessageRow, words: ReadonlySet<string>): { match_content: string; match_subject: string } {
  return { match_content: highlightHtml(row.rendered_content, words), match_subject: highlightTopic(row.topic, words) };
}

/** GET /messages/matches_narrow: which of `ids` match, as `{id: {match_content, match_subject}}`. */
export function matchesNarrow(
  realm: Realm,
  narrow: ResolvedNarrow,
  ids: readonly number[],
): Record<string, { match_content: string; match_subject: string }> {
  const sql = narrowSql(narrow);
  const rows = realm.rows<MessageRow, SqlValue[]>(matchesStatement(sql)).all(...sql.params, JSON.stringify(ids));
  const words = narrow.highlight ?? new Set<string>();
  return Object.fromEntries(rows.map((row) => [String(row.id), searchMatch(row, words)]));
}

/** Parameters: the narrow's, then the IDs as a JSON list. Exported for the query-plan test. */
export function matchesStatement(sql: NarrowSql): string {
  // No ORDER BY: the caller keys the rows by ID (and an order by a column not selected would
  // read every received row first: queries/user-message-rows.ts).
  return `SELECT m.* FROM ${sql.from} WHERE ${sql.where.join(' AND ')}
    AND ${sql.idColumn} IN (SELECT value FROM json_each(?))`;
}
