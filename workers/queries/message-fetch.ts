import type { Realm } from '../realm';
import { isUploadedAvatarUrl } from '../lib/avatar-url';
import { highlightHtml, highlightTopic } from '../lib/search-highlight';
import { MessageLookups, messageObject, type MessageRow } from './messages';
import { HISTORICAL_FLAGS } from '../lib/flags';
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

export interface FlaggedRow {
  id: number;
  /** The viewer's flags; null when they have no row (stream history). */
  user_flags: number | null;
}

export interface RangeResult<Row extends FlaggedRow> {
  rows: Row[];
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}

/** Columns for full message objects, or just what a flag update needs. */
export const FULL_COLUMNS =
  'm.id, m.sender_id, m.recipient_id, m.stream_id, m.topic, m.content, m.rendered_content, m.date_sent, m.client, m.is_me_message, m.topic_links, m.last_edit_timestamp, m.edit_history';
export const FLAG_COLUMNS = 'm.id, m.stream_id, m.topic, m.recipient_id';

/** The columns a range reads (the viewer's flags follow them), and how a row becomes a `Row`. */
export interface RowShape<Row extends FlaggedRow> {
  columns: string;
  /** For wide rows: read as arrays (Realm.rawStmt) and built here, at half the cost. */
  fromArray?: (values: unknown[]) => Row;
}

export const FLAG_ROWS: RowShape<FlaggedRow> = { columns: FLAG_COLUMNS };

/** FULL_COLUMNS then user_flags, in their order. */
export const FULL_ROWS: RowShape<FetchedRow> = {
  columns: FULL_COLUMNS,
  fromArray: (v) => ({
    id: v[0] as number,
    sender_id: v[1] as number,
    recipient_id: v[2] as number,
    stream_id: v[3] as number | null,
    topic: v[4] as string,
    content: v[5] as string,
    rendered_content: v[6] as string,
    date_sent: v[7] as number,
    client: v[8] as string,
    is_me_message: v[9] as number,
    topic_links: v[10] as string,
    last_edit_timestamp: v[11] as number | null,
    edit_history: v[12] as string | null,
    user_flags: v[13] as number | null,
  }),
};

/**
 * The rows of a narrow around an anchor (api-notes §b "Selection"): the `numBefore` highest IDs
 * below it, the anchor itself, the `numAfter` lowest above it. Each side reads one row more than
 * asked, so found_oldest / found_newest say whether anything lies beyond.
 */
export function selectRange<Row extends FlaggedRow>(
  realm: Realm,
  narrow: ResolvedNarrow,
  request: RangeRequest,
  shape: RowShape<Row>,
): RangeResult<Row> {
  const sql = narrowSql(narrow);
  const statements = rangeStatements(sql, shape.columns, narrow);
  const anchor = resolveAnchor(realm, statements, request.anchor);
  const fromArray = shape.fromArray;
  const all = (statement: string, ...params: SqlValue[]): Row[] =>
    fromArray ? (realm.rawStmt(statement).all(...params) as unknown[][]).map(fromArray) : (realm.stmt(statement).all(...params) as Row[]);
  const before = all(statements.before, ...sql.params, anchor, request.numBefore + 1);
  const [at] = all(statements.at, ...sql.params, anchor);
  const after = anchor >= LARGER_THAN_MAX_MESSAGE_ID ? [] : all(statements.after, ...sql.params, anchor, request.numAfter + 1);
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

export interface RangeStatements {
  /** Parameters: the narrow's, then the anchor and a limit. */
  before: string;
  /** Parameters: the narrow's, then the anchor. */
  at: string;
  after: string;
  /** Parameters: `firstUnreadParams`. */
  firstUnread: string;
  firstUnreadParams: SqlValue[];
}

/** The SQL of each read around an anchor; exported for the query-plan test. */
export function rangeStatements(sql: NarrowSql, columns: string, narrow: ResolvedNarrow): RangeStatements {
  const select = `SELECT ${columns}, um.flags AS user_flags FROM ${sql.from} WHERE ${sql.where.join(' AND ')}`;
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
    before: `${select} AND ${sql.idColumn} < ? ORDER BY ${sql.idColumn} DESC LIMIT ?`,
    // The anchor row by the message's own key: on a search narrow, `f.rowid = ?` beside MATCH
    // made FTS5 walk every match (205 ms on a million messages; `m.id = ?`: 0.03 ms).
    at: `${select} AND m.id = ?`,
    after: `${select} AND ${sql.idColumn} > ? ORDER BY ${sql.idColumn} ASC LIMIT ?`,
    firstUnread: `SELECT ${unread.idColumn} AS id FROM ${unread.from} WHERE ${unreadWhere.join(' AND ')} ORDER BY ${unread.idColumn} ASC LIMIT 1`,
    firstUnreadParams,
  };
}

function resolveAnchor(realm: Realm, statements: RangeStatements, anchor: Anchor): number {
  if (anchor === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (anchor === 'oldest') return 0;
  if (anchor !== 'first_unread') return anchor;
  const row = realm.stmt(statements.firstUnread).get(...statements.firstUnreadParams) as { id: number } | undefined;
  // None unread: as `newest` (api-notes §c).
  return row?.id ?? LARGER_THAN_MAX_MESSAGE_ID;
}

/** The flags the viewer sees on a selected row (api-notes §b: history is read + historical). */
export function viewerFlags(row: FlaggedRow): number {
  return row.user_flags ?? HISTORICAL_FLAGS;
}

export interface MessageOptions {
  applyMarkdown: boolean;
  /** SPEC Message.avatar_url: null tells the client to compute the external avatar itself. */
  clientExtavatar: boolean;
}

export type FetchedRow = MessageRow & FlaggedRow;

/** Message objects with the viewer's flags, plus the search fields when the narrow searches. */
export function fetchedMessages(
  realm: Realm,
  narrow: ResolvedNarrow,
  rows: readonly FetchedRow[],
  options: MessageOptions,
): Record<string, unknown>[] {
  const lookups = new MessageLookups(realm);
  lookups.preloadReactions(rows.map((row) => row.id));
  return rows.map((row) => {
    const object = messageObject(realm, row, viewerFlags(row), options.applyMarkdown, lookups);
    // SPEC Message.avatar_url: null unless the sender uploaded one (files: its URL cannot be computed).
    if (options.clientExtavatar && !isUploadedAvatarUrl(object['avatar_url'])) object['avatar_url'] = null;
    if (narrow.highlight) Object.assign(object, searchMatch(row, narrow.highlight));
    return object;
  });
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
  const rows = realm.stmt(matchesStatement(sql)).all(...sql.params, JSON.stringify(ids)) as MessageRow[];
  const words = narrow.highlight ?? new Set<string>();
  return Object.fromEntries(rows.map((row) => [String(row.id), searchMatch(row, words)]));
}

/** Parameters: the narrow's, then the IDs as a JSON list. Exported for the query-plan test. */
export function matchesStatement(sql: NarrowSql): string {
  return `SELECT m.* FROM ${sql.from} WHERE ${sql.where.join(' AND ')}
    AND ${sql.idColumn} IN (SELECT value FROM json_each(?)) ORDER BY ${sql.idColumn}`;
}
