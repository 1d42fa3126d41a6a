import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { openRealmDb } from '../../workers/db/open';
import {
  FULL_COLUMNS,
  matchesStatement,
  messageRowFromArray,
  rangeStatements,
  type MessageColumns,
} from '../../workers/queries/message-fetch';
import { MESSAGES_BY_ID } from '../../workers/queries/message-json';
import { narrowSql, type ResolvedNarrow, type ResolvedTerm } from '../../workers/queries/narrow-sql';
import { UNREAD_STATE } from '../../workers/queries/register-messages';
import { UNREAD_IDS, UNREAD_IDS_IN_CONVERSATION } from '../../workers/queries/unread';

// Every narrow shape must read messages and the viewer's rows through an index: a plain
// `SCAN messages` on a million-message realm is a full table read. `SCAN um` after
// `CO-ROUTINE um` reads the rows the subquery's own lines (checked too) found.
const FULL_SCAN = /\bSCAN (m|um\d?|x|messages|user_messages|user_messages_recent)\b(?! USING)/;
const fullScan = (plan: string): boolean => FULL_SCAN.test(plan.includes('CO-ROUTINE um\n') ? plan.replace(/^SCAN um$/m, '') : plan);

const MATCH_NOTHING = new Set([
  'dm never sent',
  'dm never sent, unread',
  'search without a word',
  'search without a word in a stream, unread',
  'is:followed',
  'is:followed history',
]);

const SHAPES: Record<string, { history: boolean; terms: ResolvedTerm[] }> = {
  'no narrow': { history: false, terms: [] },
  'stream history': { history: true, terms: [{ kind: 'stream', streamId: 1, negated: false }] },
  'stream and topic history': {
    history: true,
    terms: [
      { kind: 'stream', streamId: 1, negated: false },
      { kind: 'topic', topic: 'hello', negated: false },
    ],
  },
  'streams:public history': { history: true, terms: [{ kind: 'streams', webPublicOnly: false, negated: false }] },
  'stream without history access': { history: false, terms: [{ kind: 'stream', streamId: 1, negated: false }] },
  'topic alone': { history: false, terms: [{ kind: 'topic', topic: 'hello', negated: false }] },
  'sender history': {
    history: true,
    terms: [
      { kind: 'stream', streamId: 1, negated: false },
      { kind: 'sender', userId: 2, negated: false },
    ],
  },
  sender: { history: false, terms: [{ kind: 'sender', userId: 2, negated: false }] },
  'dm conversation': { history: false, terms: [{ kind: 'recipient', recipientId: 5, negated: false }] },
  'dm-including': { history: false, terms: [{ kind: 'dm-including', userId: 2, negated: false }] },
  'group-pm-with': { history: false, terms: [{ kind: 'group-dm-with', userId: 2, negated: false }] },
  'is:dm': { history: false, terms: [{ kind: 'is', operand: 'dm', negated: false }] },
  'is:starred': { history: false, terms: [{ kind: 'is', operand: 'starred', negated: false }] },
  'is:unread': { history: false, terms: [{ kind: 'is', operand: 'unread', negated: false }] },
  'is:mentioned': { history: false, terms: [{ kind: 'is', operand: 'mentioned', negated: false }] },
  'is:resolved history': {
    history: true,
    terms: [
      { kind: 'stream', streamId: 1, negated: false },
      { kind: 'is', operand: 'resolved', negated: false },
    ],
  },
  'has:link': { history: false, terms: [{ kind: 'has', operand: 'link', negated: false }] },
  'in:home': { history: false, terms: [{ kind: 'in-home', negated: false }] },
  id: { history: false, terms: [{ kind: 'id', messageId: 3, negated: false }] },
  search: { history: false, terms: [{ kind: 'search', match: '"hello"', negated: false }] },
  'search in a stream': {
    history: true,
    terms: [
      { kind: 'stream', streamId: 1, negated: false },
      { kind: 'search', match: '"hello"', negated: false },
    ],
  },
  'negated stream': { history: false, terms: [{ kind: 'stream', streamId: 1, negated: true }] },
  // Terms that match nothing are a constant false, which SQLite folds the whole WHERE clause
  // into: a forced index whose condition the clause no longer implies failed the statement.
  'dm never sent': { history: false, terms: [{ kind: 'recipient', recipientId: null, negated: false }] },
  'dm never sent, unread': {
    history: false,
    terms: [
      { kind: 'recipient', recipientId: null, negated: false },
      { kind: 'is', operand: 'unread', negated: false },
    ],
  },
  'not a dm never sent': { history: false, terms: [{ kind: 'recipient', recipientId: null, negated: true }] },
  'dm conversation, unread': {
    history: false,
    terms: [
      { kind: 'recipient', recipientId: 5, negated: false },
      { kind: 'is', operand: 'unread', negated: false },
    ],
  },
  'search without a word': { history: false, terms: [{ kind: 'search', match: null, negated: false }] },
  'search without a word in a stream, unread': {
    history: false,
    terms: [
      { kind: 'stream', streamId: 1, negated: false },
      { kind: 'search', match: null, negated: false },
      { kind: 'is', operand: 'unread', negated: false },
    ],
  },
  'is:followed': { history: false, terms: [{ kind: 'is', operand: 'followed', negated: false }] },
  'is:followed history': {
    history: true,
    terms: [
      { kind: 'stream', streamId: 1, negated: false },
      { kind: 'is', operand: 'followed', negated: false },
    ],
  },
  'search, unread': {
    history: false,
    terms: [
      { kind: 'search', match: '"hello"', negated: false },
      { kind: 'is', operand: 'unread', negated: false },
    ],
  },
  'not unread': { history: false, terms: [{ kind: 'is', operand: 'unread', negated: true }] },
};

t.test('every narrow shape reads messages and user_messages through an index', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'teamchat-plan-'));
  const db = openRealmDb(path.join(dir, 'plan.sqlite3'), { create: true });
  t.teardown(() => db.close());
  const plan = (sql: string, params: unknown[]): string =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join('\n');
  // The error text in place of a plan, so a statement SQLite cannot plan fails its own assertion.
  const planOrError = (sql: string, params: unknown[]): string => {
    try {
      return plan(sql, params);
    } catch (err) {
      return `cannot be planned: ${(err as Error).message}`;
    }
  };
  // Both tables of the viewer's rows (queries/user-message-rows.ts), each by its unread index.
  const UNREAD_INDEX =
    /SEARCH user_messages USING COVERING INDEX user_messages_unread \(user_id=\?[^]*SEARCH user_messages_recent USING COVERING INDEX user_messages_recent_unread \(user_id=\?/;

  for (const [name, shape] of Object.entries(SHAPES)) {
    const narrow: ResolvedNarrow = { viewerId: 1, terms: shape.terms, includeHistory: shape.history, near: null, highlight: null };
    const sql = narrowSql(narrow);
    const statements = rangeStatements(sql, narrow);
    const plans = {
      before: planOrError(statements.before(51), [...sql.params, 100]),
      at: planOrError(statements.at, [...sql.params, 100]),
      after: planOrError(statements.after(51), [...sql.params, 100]),
      first_unread: planOrError(statements.firstUnread, statements.firstUnreadParams),
      matches_narrow: planOrError(matchesStatement(sql), [...sql.params, '[1,2]']),
    };
    for (const [statement, text] of Object.entries(plans)) {
      t.notMatch(text, /cannot be planned/, `${name}: ${statement} can be planned\n${text}`);
      if (!MATCH_NOTHING.has(name)) t.notOk(fullScan(text), `${name}: ${statement} uses an index\n${text}`);
    }
    if (MATCH_NOTHING.has(name)) {
      // SQLite folds the WHERE clause to false and tests it once, before its loop: whatever
      // plan it prints, no row is read (measured on a million messages: 0.004 ms, where a
      // scan with a false condition took 87 ms).
      t.ok(sql.where.includes('0'), `${name}: a term is the constant false`);
    } else if (name === 'id') {
      t.match(
        plans.first_unread,
        /SEARCH user_messages USING PRIMARY KEY \(user_id=\? AND message_id=\?\)[^]*SEARCH user_messages_recent USING PRIMARY KEY \(user_id=\? AND message_id=\?\)/,
        'id: first_unread reads one row of each table',
      );
    } else {
      t.match(plans.first_unread, UNREAD_INDEX, `${name}: first_unread reads the unread rows alone\n${plans.first_unread}`);
    }
  }
  t.test('a stream history range reads only messages_stream_id', async (t) => {
    const narrow: ResolvedNarrow = {
      viewerId: 1,
      terms: SHAPES['stream history']?.terms ?? [],
      includeHistory: true,
      near: null,
      highlight: null,
    };
    const sql = narrowSql(narrow);
    t.match(plan(rangeStatements(sql, narrow).before(101), [...sql.params, 100]), 'SEARCH m USING COVERING INDEX messages_stream_id ');
  });
  t.test('a page reads the messages its cache lacks by primary key', async (t) => {
    t.match(plan(MESSAGES_BY_ID, ['[1,2]']), /SEARCH m USING INTEGER PRIMARY KEY \(rowid=\?\)/);
  });
  t.test('the stream and topic narrow reads only messages_stream_topic by ID range, without sorting', async (t) => {
    const narrow: ResolvedNarrow = {
      viewerId: 1,
      terms: SHAPES['stream and topic history']?.terms ?? [],
      includeHistory: true,
      near: null,
      highlight: null,
    };
    const sql = narrowSql(narrow);
    const text = plan(rangeStatements(sql, narrow).before(101), [...sql.params, 100]);
    // COVERING: IDs and versions come from the index (migration 16), not from message rows.
    t.match(text, /SEARCH m USING COVERING INDEX messages_stream_topic \(stream_id=\? AND topic=\? AND id<\?\)/);
    t.notMatch(text, /TEMP B-TREE/);
  });
  t.test('is:unread uses the partial index of unread rows', async (t) => {
    for (const name of ['is:unread', 'dm conversation, unread', 'search, unread']) {
      const narrow: ResolvedNarrow = { viewerId: 1, terms: SHAPES[name]?.terms ?? [], includeHistory: false, near: null, highlight: null };
      const sql = narrowSql(narrow);
      const statements = rangeStatements(sql, narrow);
      t.match(plan(statements.before(101), [...sql.params, 100]), UNREAD_INDEX, `${name}: before`);
      t.match(plan(statements.after(101), [...sql.params, 100]), UNREAD_INDEX, `${name}: after`);
    }
  });
  t.test('unread_msgs and the mark-as-read endpoints read only the unread rows', async (t) => {
    t.match(plan(UNREAD_STATE, [1]), UNREAD_INDEX);
    t.match(plan(UNREAD_IDS, [1]), UNREAD_INDEX);
    t.match(plan(UNREAD_IDS_IN_CONVERSATION, [1, 5, 'hello', 'hello']), UNREAD_INDEX);
  });

  t.test('a full row read as an array becomes the same row as SELECT m.* reads', async (t) => {
    // A column added to messages must be added to FULL_COLUMNS and messageRowFromArray too.
    const tableColumns = (db.prepare("SELECT name FROM pragma_table_info('messages')").all() as { name: string }[])
      .map((column) => column.name)
      .filter((name) => name !== 'rendered_content_version');
    t.strictSame(
      FULL_COLUMNS.split(', ').map((column) => column.slice('m.'.length)),
      tableColumns,
    );
    // The row only has to be read back: its sender, recipient and stream need not exist.
    db.pragma('foreign_keys = OFF');
    db.prepare(
      `INSERT INTO messages (id, sender_id, recipient_id, stream_id, topic, content, rendered_content, rendered_content_version, date_sent, client, is_me_message, topic_links, last_edit_timestamp, edit_history)
       VALUES (77, 1, 2, 3, 'topic', 'raw', '<p>raw</p>', 1, 1700000000, 'test', 0, '[]', 1700000100, '[]')`,
    ).run();
    db.pragma('foreign_keys = ON');
    const asArray = db.prepare(`SELECT ${FULL_COLUMNS} FROM messages m WHERE m.id = 77`).raw(true).get() as MessageColumns;
    const asObject = db.prepare('SELECT m.* FROM messages m WHERE m.id = 77').get() as Record<string, unknown>;
    delete asObject['rendered_content_version'];
    t.strictSame(messageRowFromArray(asArray), asObject);
  });
});
