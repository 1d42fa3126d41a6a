/** SQL, YAML and diffs, tokenized as the reference highlighter's lexers for them do. */
import { rule, words, type LexerDefinition } from '../lexer';
import * as T from '../token-classes';

const SQL_KEYWORDS = [
  'ABORT', 'ACTION', 'ADD', 'AFTER', 'ALL', 'ALTER', 'ALWAYS', 'ANALYZE', 'AND', 'ANY', 'ARRAY', 'AS', 'ASC',
  'ASSERTION', 'AT', 'AUTHORIZATION', 'AUTO_INCREMENT', 'BEFORE', 'BEGIN', 'BETWEEN', 'BOTH', 'BY', 'CALL', 'CASCADE',
  'CASE', 'CAST', 'CHECK', 'CLOSE', 'COALESCE', 'COLLATE', 'COLUMN', 'COMMENT', 'COMMIT', 'CONFLICT', 'CONSTRAINT',
  'CONTINUE', 'COPY', 'COUNT', 'CREATE', 'CROSS', 'CURRENT', 'CURRENT_DATE', 'CURRENT_TIME', 'CURRENT_TIMESTAMP',
  'CURRENT_USER', 'CURSOR', 'DATABASE', 'DEALLOCATE', 'DECLARE', 'DEFAULT', 'DEFERRABLE', 'DEFERRED', 'DELETE',
  'DESC', 'DESCRIBE', 'DISTINCT', 'DO', 'DOMAIN', 'DROP', 'EACH', 'ELSE', 'ELSIF', 'END', 'ESCAPE', 'EXCEPT',
  'EXCLUSIVE', 'EXECUTE', 'EXISTS', 'EXPLAIN', 'EXTENSION', 'EXTRACT', 'FALSE', 'FETCH', 'FIRST', 'FOLLOWING', 'FOR',
  'FOREIGN', 'FROM', 'FULL', 'FUNCTION', 'GENERATED', 'GRANT', 'GROUP', 'HAVING', 'IF', 'IGNORE', 'ILIKE',
  'IMMEDIATE', 'IN', 'INDEX', 'INHERITS', 'INITIALLY', 'INNER', 'INSERT', 'INSTEAD', 'INTERSECT', 'INTO', 'IS',
  'ISNULL', 'JOIN', 'KEY', 'LANGUAGE', 'LAST', 'LATERAL', 'LEADING', 'LEFT', 'LIKE', 'LIMIT', 'LOCAL', 'LOCK',
  'MATCH', 'MATERIALIZED', 'MERGE', 'NATURAL', 'NEXT', 'NO', 'NOT', 'NOTHING', 'NOTNULL', 'NULL', 'NULLIF', 'NULLS',
  'OF', 'OFF', 'OFFSET', 'ON', 'ONLY', 'OPEN', 'OPTION', 'OR', 'ORDER', 'OUTER', 'OVER', 'OVERLAPS', 'OWNER',
  'PARTITION', 'PLACING', 'PRECEDING', 'PREPARE', 'PRIMARY', 'PRIVILEGES', 'PROCEDURE', 'RANGE', 'RECURSIVE',
  'REFERENCES', 'RELEASE', 'RENAME', 'REPLACE', 'RESTRICT', 'RETURN', 'RETURNING', 'RETURNS', 'REVOKE', 'RIGHT',
  'ROLE', 'ROLLBACK', 'ROW', 'ROWS', 'SAVEPOINT', 'SCHEMA', 'SELECT', 'SEQUENCE', 'SESSION', 'SET', 'SHOW', 'SOME',
  'START', 'TABLE', 'TEMP', 'TEMPORARY', 'THEN', 'TO', 'TRAILING', 'TRANSACTION', 'TRIGGER', 'TRUE', 'TRUNCATE',
  'TYPE', 'UNBOUNDED', 'UNION', 'UNIQUE', 'UNLOGGED', 'UPDATE', 'USER', 'USING', 'VACUUM', 'VALUES', 'VIEW',
  'WHEN', 'WHERE', 'WINDOW', 'WITH', 'WITHOUT',
];

const SQL_DATA_TYPES = [
  'BIGINT', 'BIGSERIAL', 'BINARY', 'BIT', 'BLOB', 'BOOLEAN', 'BOOL', 'BYTEA', 'CHAR', 'CHARACTER', 'DATE', 'DEC',
  'DECIMAL', 'DOUBLE', 'FLOAT', 'INT', 'INTEGER', 'INTERVAL', 'JSON', 'JSONB', 'NUMBER', 'NUMERIC', 'REAL',
  'SERIAL', 'SMALLINT', 'TEXT', 'TIME', 'TIMESTAMP', 'TINYINT', 'UUID', 'VARCHAR', 'VARYING', 'ZONE',
];

export const SQL: LexerDefinition = {
  states: {
    root: [
      rule(/\s+/, T.Text),
      rule(/--.*\n?/, T.CommentSingle),
      rule(/\/\*/, T.CommentMultiline, 'multiline-comment'),
      rule(new RegExp(words(SQL_KEYWORDS), 'i'), T.Keyword),
      rule(new RegExp(words(SQL_DATA_TYPES), 'i'), T.NameBuiltin),
      rule(/[+*/<>=~!@#%^&|`?-]/, T.Operator),
      rule(/[0-9]+/, T.NumberInteger),
      rule(/'(''|[^'])*'/, T.StringSingle),
      rule(/"(""|[^"])*"/, T.StringSymbol),
      rule(/[a-z_][\w$]*/i, T.Name),
      rule(/[;:()[\],.]/, T.Punctuation),
    ],
    'multiline-comment': [
      rule(/\/\*/, T.CommentMultiline, 'multiline-comment'),
      rule(/\*\//, T.CommentMultiline, '#pop'),
      rule(/[^/*]+|[/*]/, T.CommentMultiline),
    ],
  },
};

/** Unified and context diffs: whole lines are removed, added, hunk headers or file headers. */
export const DIFF: LexerDefinition = {
  states: {
    root: [
      rule(/( )(.*)(\n)/, [T.Text, T.Text, T.Text]),
      rule(/(!.*|---)(\n)/, [T.GenericStrong, T.Text]),
      rule(/((?:< |-).*)(\n)/, [T.GenericDeleted, T.Text]),
      rule(/((?:> |\+).*)(\n)/, [T.GenericInserted, T.Text]),
      rule(/(@.*|\d(?:,\d+)*(?:a|d|c)\d+(?:,\d+)*)(\n)/, [T.GenericSubheading, T.Text]),
      rule(/((?:[Ii]ndex|diff).*)(\n)/, [T.GenericHeading, T.Text]),
      rule(/(=.*)(\n)/, [T.GenericHeading, T.Text]),
      rule(/(.*)(\n)/, [T.Text, T.Text]),
    ],
  },
};

/**
 * YAML by line shape: `key:` is a tag, indicators (`-`, `:`, `? `, `[ ] { } ,`, `|`, `>`) are
 * indicator punctuation, unquoted values are plain scalars, `&anchor`/`*alias` variables and
 * `!tag` types.
 */
export const YAML: LexerDefinition = {
  states: {
    root: [
      rule(/[ \t]+|\n/, T.Text),
      rule(/#.*/, T.CommentSingle),
      rule(/^(?:---|\.\.\.)(?=[ \t]|$)/, T.NameNamespace),
      rule(/^%.*/, T.NameTag),
      rule(/[-?:](?=[ \t]|$)/, T.PunctuationIndicator),
      rule(/[[{]/, T.PunctuationIndicator, 'flow'),
      rule(/[|>][-+0-9]*(?=[ \t]*(?:#.*)?$)/, T.PunctuationIndicator, 'block-scalar'),
      rule(/("(\\.|[^"\\\n])*"|'(''|[^'\n])*'|[^\s#'"[\]{},:&*!|>-][^\n#]*?|[-?:][^\s#][^\n#]*?)(?=[ \t]*:(?:[ \t]|$))/, T.NameTag),
      rule(/&[^\s[\]{},]+/, T.NameLabel),
      rule(/\*[^\s[\]{},]+/, T.NameVariable),
      rule(/![^\s[\]{},]*/, T.KeywordType),
      rule(/"(\\.|[^"\\])*"|'(''|[^'])*'/, T.String),
      rule(/[^\s#[\]{},][^\n#]*?(?=[ \t]+#|[ \t]*$)/, T.LiteralScalarPlain),
    ],
    flow: [
      rule(/[ \t]+|\n/, T.Text),
      rule(/[\]}]/, T.PunctuationIndicator, '#pop'),
      rule(/[[{]/, T.PunctuationIndicator, 'flow'),
      rule(/[,:?]/, T.PunctuationIndicator),
      rule(/("(\\.|[^"\\])*"|'(''|[^'])*'|[^\s#'"[\]{},:][^\n#[\]{},:]*?)(?=[ \t]*:)/, T.NameTag),
      rule(/"(\\.|[^"\\])*"|'(''|[^'])*'/, T.String),
      rule(/&[^\s[\]{},]+/, T.NameLabel),
      rule(/\*[^\s[\]{},]+/, T.NameVariable),
      rule(/![^\s[\]{},]*/, T.KeywordType),
      rule(/#.*/, T.CommentSingle),
      rule(/[^\s#[\]{},:][^\n#[\]{},:]*?(?=[ \t]*(?:[[\]{},:]|[ \t]#|$))/, T.LiteralScalarPlain),
    ],
    'block-scalar': [
      rule(/\n/, T.Text),
      rule(/^([ \t]+)(.*)$/, [T.Text, T.LiteralScalarBlock]),
      rule(/^(?=\S)/, T.Text, '#pop'),
    ],
  },
};
