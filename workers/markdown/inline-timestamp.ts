/**
 * `<time:...>` (api-notes §g): a `<time datetime="...">` element showing the text as typed, or a
 * `timestamp-error` span when the text is not a time.
 */
import type { TokenizerAndRendererExtension, Tokens } from 'marked';
import { escapeAttribute, escapeLiteral } from './escape';
import { parseTimestamp } from './timestamp';
import { isToken, type TimestampToken } from './tokens';

const TIMESTAMP = /^<time:([^>]*?)>/;

function tokenizeTimestamp(src: string): TimestampToken | undefined {
  const match = TIMESTAMP.exec(src);
  if (match === null) return undefined;
  const text = match[1] ?? '';
  return { type: 'timestamp', raw: match[0], text, datetime: parseTimestamp(text) };
}

function renderTimestamp(token: Tokens.Generic): string | false {
  if (!isToken(token, 'timestamp')) return false;
  if (token.datetime === null) {
    return `<span class="timestamp-error">Invalid time format: ${escapeLiteral(token.text)}</span>`;
  }
  return `<time datetime="${escapeAttribute(token.datetime)}">${escapeLiteral(token.text)}</time>`;
}

export const timestampExtension: TokenizerAndRendererExtension = {
  name: 'timestamp',
  level: 'inline',
  tokenizer: (src) => (src.startsWith('<time:') ? tokenizeTimestamp(src) : undefined),
  renderer: renderTimestamp,
};
