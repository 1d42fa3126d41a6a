import { FLAG_BIT, HISTORICAL_FLAGS } from '../lib/flags';
import { RESOLVED_TOPIC_PREFIX } from '../lib/resolved-topic';
import type { HasOperand, IsOperand } from '../lib/narrow';
import { ALL_USER_MESSAGES, hasRowParams, hasRowSql, USER_MESSAGE_TABLES } from './user-message-rows';

/**
 * Narrow terms as SQL (api-notes §c), built without a realm so the plan test can check every
 * shape with EXPLAIN QUERY PLAN. User input only ever travels as bound parameters.
 *
 * Two ways in, each on an index:
 * - history: `messages` read through messages_stream_topic / messages_stream_id (a stream
 *   narrow) or by ID range (streams:public), with the viewer's row LEFT JOINed for flags from
 *   each of the two tables that hold such rows (queries/user-message-rows.ts);
 * - received: the viewer's rows by (user_id, message_id) range in both tables, merged in
 *   order, joined to `messages` by rowid.
 */

export type ResolvedTerm = { negated: boolean } & (
  | { kind: 'stream'; streamId: number }
  | { kind: 'streams'; webPublicOnly: boolean }
  | { kind: 'topic'; topic: string }
  | { kind: 'sender'; userId: number }
  /** The exact direct conversation; null when it does not exist (matches nothing). */
  | { kind: 'recipient'; recipientId: number | null }
  | { kind: 'dm-including'; userId: number }
  | { kind: 'group-dm-with'; userId: number }
  | { kind: 'is'; operand: IsOperand }
  | { kind: 'has'; operand: HasOperand }
  | { kind: 'in-home' }
  | { kind: 'id'; messageId: number }
  /** An FTS5 expression; null when the query has no searchable word (matches nothing). */
  | { kind: 'search'; match: string | null }
);

export interface ResolvedNarrow {
  viewerId: number;
  terms: ResolvedTerm[];
  /** Read stream history, not only the viewer's received messages. */
  includeHistory: boolean;
  /** A `near` term's message ID: the anchor the client asks for. */
  near: number | null;
  /** Folded words to highlight; null without a (non-negated) search term. */
  highlight: ReadonlySet<string> | null;
}

export type SqlValue = number | string;

export interface NarrowSql {
  /** FROM clause: `m` is messages; the viewer's row is read by `rowFlags`. */
  from: string;
  /**
   * The message ID column the range and order use (the index's own column). A query ordered by
   * it selects it too (as `id`): queries/user-message-rows.ts ALL_USER_MESSAGES says why.
   */
  idColumn: string;
  /** The viewer's flags on the row; null when the viewer has no row (history). */
  rowFlags: string;
  /** The viewer's flags on the row; history rows read as `read` + `historical`. */
  flagsExpr: string;
  where: string[];
  params: SqlValue[];
}

// Content properties, decided from the rendered HTML (api-notes §c `has`).
const HAS_PATTERNS: Record<HasOperand, string> = {
  link: '%<a href%',
  image: '%message_inline_image%',
  attachment: '%/user_uploads/%',
};

/**
 * `unreadOnly`: only the viewer's unread rows (first_unread). Those, and an `is:unread` narrow,
 * are read through the partial index user_messages_unread, which the planner picks by itself
 * (migration 17): a user's read rows can be millions. No INDEXED BY: it fails the whole
 * statement ("no query solution") when a term that matches nothing folds the WHERE clause to false.
 */
export function narrowSql(narrow: ResolvedNarrow, unreadOnly = false): NarrowSql {
  const history = narrow.includeHistory;
  const readsUnreadRows = unreadOnly || narrow.terms.some((term) => term.kind === 'is' && term.operand === 'unread' && !term.negated);
  // A search reads the full-text index newest first and stops at the limit, instead of
  // collecting every match (a common word matches a large part of the realm).
  const driver = readsUnreadRows ? undefined : narrow.terms.find(isPositiveSearch);
  const sql = driver ? searchDriven(history, narrow.viewerId, driver.match) : messageDriven(history, narrow.viewerId);
  if (unreadOnly) sql.where.push(unreadCondition(sql.flagsExpr));
  for (const term of narrow.terms) {
    if (term === driver) continue;
    const { condition, params } = termCondition(term, narrow.viewerId, sql.flagsExpr);
    // coalesce: a condition on a NULL column (stream_id of a direct message) is false, so
    // its negation must be true.
    sql.where.push(term.negated ? `NOT coalesce(${condition}, 0)` : condition);
    sql.params.push(...params);
  }
  return sql;
}

function messageDriven(history: boolean, viewerId: number): NarrowSql {
  return history
    ? {
        from: `messages m ${VIEWER_ROW_JOINS}`,
        idColumn: 'm.id',
        rowFlags: VIEWER_ROW_FLAGS,
        flagsExpr: `coalesce(${VIEWER_ROW_FLAGS}, ${HISTORICAL_FLAGS})`,
        where: [],
        params: [viewerId, viewerId],
      }
    : {
        from: `${ALL_USER_MESSAGES} um JOIN messages m ON m.id = um.message_id`,
        idColumn: 'um.message_id',
        rowFlags: 'um.flags',
        flagsExpr: 'um.flags',
        where: ['um.user_id = ?'],
        params: [viewerId],
      };
}

// The viewer's row from either table (one `?` each: the viewer), each by primary key.
const VIEWER_ROW_JOINS = USER_MESSAGE_TABLES.map(
  (table, i) => `LEFT JOIN ${table} um${i} ON um${i}.user_id = ? AND um${i}.message_id = m.id`,
).join(' ');
const VIEWER_ROW_FLAGS = `coalesce(${USER_MESSAGE_TABLES.map((_, i) => `um${i}.flags`).join(', ')})`;

type PositiveSearch = Extract<ResolvedTerm, { kind: 'search' }> & { match: string };

function isPositiveSearch(term: ResolvedTerm): term is PositiveSearch {
  return term.kind === 'search' && !term.negated && term.match !== null;
}

function searchDriven(history: boolean, viewerId: number, match: string): NarrowSql {
  return {
    from: `messages_fts f JOIN messages m ON m.id = f.rowid ${VIEWER_ROW_JOINS}`,
    idColumn: 'f.rowid',
    rowFlags: VIEWER_ROW_FLAGS,
    flagsExpr: history ? `coalesce(${VIEWER_ROW_FLAGS}, ${HISTORICAL_FLAGS})` : VIEWER_ROW_FLAGS,
    where: history ? ['f.messages_fts MATCH ?'] : ['f.messages_fts MATCH ?', `${VIEWER_ROW_FLAGS} IS NOT NULL`],
    params: [viewerId, viewerId, match],
  };
}

interface Condition {
  condition: string;
  params: SqlValue[];
}

function termCondition(term: ResolvedTerm, viewerId: number, flags: string): Condition {
  switch (term.kind) {
    case 'stream':
      return { condition: 'm.stream_id = ?', params: [term.streamId] };
    case 'streams':
      return {
        condition: `m.stream_id IN (SELECT id FROM streams WHERE ${term.webPublicOnly ? 'is_web_public = 1' : 'invite_only = 0'})`,
        params: [],
      };
    case 'topic':
      // COLLATE NOCASE: the collation of messages_stream_topic, so the index serves it.
      return { condition: '(m.stream_id IS NOT NULL AND m.topic = ? COLLATE NOCASE)', params: [term.topic] };
    case 'sender':
      return { condition: 'm.sender_id = ?', params: [term.userId] };
    case 'recipient':
      return term.recipientId === null ? { condition: '0', params: [] } : { condition: 'm.recipient_id = ?', params: [term.recipientId] };
    case 'dm-including':
      return { condition: `(m.stream_id IS NULL AND ${receivedBy})`, params: hasRowParams(term.userId) };
    case 'group-dm-with':
      // A group conversation has three members or more: two commas in its key.
      return {
        condition: `(m.stream_id IS NULL AND ${receivedBy} AND (SELECT length(r.direct_key) - length(replace(r.direct_key, ',', ''))
          FROM recipients r WHERE r.id = m.recipient_id) >= 2)`,
        params: hasRowParams(term.userId),
      };
    case 'is':
      return isCondition(term.operand, flags);
    case 'has':
      return { condition: 'm.rendered_content LIKE ?', params: [HAS_PATTERNS[term.operand]] };
    case 'in-home':
      // stream-prefs: muted topics left out; an unmuted topic of a muted stream kept (SPEC Topic visibility policy).
      return {
        condition: `NOT (${mutedStream} AND NOT ${topicWithPolicy(2)}) AND NOT ${topicWithPolicy(1)}`,
        params: [viewerId, viewerId, viewerId],
      };
    case 'id':
      return { condition: 'm.id = ?', params: [term.messageId] };
    case 'search':
      if (term.match === null) return { condition: '0', params: [] };
      // Kept: per-row lookups (the rows are already few: unread ones, or a second search).
      // Left out: one pass over the matches, cheaper than a lookup for each of many rows.
      return {
        condition: term.negated
          ? 'm.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)'
          : 'EXISTS (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? AND rowid = m.id)',
        params: [term.match],
      };
  }
}

// Every member of a direct conversation has a row: membership is a primary-key lookup.
const receivedBy = hasRowSql('m.id');

/** The viewer (one `?`) set this policy on the message's topic; the user_topics primary key serves it. */
export function topicWithPolicy(policy: 1 | 2): string {
  return `EXISTS (SELECT 1 FROM user_topics t WHERE t.user_id = ? AND t.stream_id = m.stream_id AND t.topic = m.topic AND t.visibility_policy = ${policy})`;
}

export const mutedStream = 'EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = ? AND s.stream_id = m.stream_id AND s.is_muted = 1)';

function isCondition(operand: IsOperand, flags: string): Condition {
  switch (operand) {
    case 'dm':
      return { condition: 'm.stream_id IS NULL', params: [] };
    case 'starred':
      return { condition: `(${flags} & ${FLAG_BIT.starred}) != 0`, params: [] };
    case 'mentioned':
      return { condition: `(${flags} & ${FLAG_BIT.mentioned | FLAG_BIT.wildcard_mentioned}) != 0`, params: [] };
    case 'alerted':
      return { condition: `(${flags} & ${FLAG_BIT.has_alert_word}) != 0`, params: [] };
    case 'unread':
      // Written as in the partial index user_messages_unread, so that index can serve it.
      return { condition: unreadCondition(flags), params: [] };
    case 'resolved':
      return { condition: '(m.stream_id IS NOT NULL AND substr(m.topic, 1, 2) = ?)', params: [RESOLVED_TOPIC_PREFIX] };
    case 'followed':
      // SPEC Topic visibility policy has no "followed" value (0/1/2 only): nothing is followed.
      return { condition: '0', params: [] };
  }
}

export function unreadCondition(flags: string): string {
  return `(${flags} & ${FLAG_BIT.read}) = 0`;
}
