import { foldWord } from './search-query';

/**
 * `match_content` / `match_subject` (api-notes §b GET /messages): matched words wrapped in
 * `<span class="highlight">`. Only text is touched: tags (and their attributes) and character
 * references are copied as they are.
 */

// A tag, a character reference, or a word (the same word shape as search-query.ts).
const HTML_PIECE = /<[^>]*>|&(?:#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z0-9]+);|[\p{L}\p{N}\p{M}]+/gu;

export function highlightHtml(html: string, words: ReadonlySet<string>): string {
  if (words.size === 0) return html;
  return html.replace(HTML_PIECE, (piece) => {
    const first = piece[0];
    if (first === '<' || first === '&') return piece;
    return words.has(foldWord(piece)) ? `<span class="highlight">${piece}</span>` : piece;
  });
}

export function escapeTopic(topic: string): string {
  return topic.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
}

/** The topic HTML-escaped, then highlighted. */
export function highlightTopic(topic: string, words: ReadonlySet<string>): string {
  return highlightHtml(escapeTopic(topic), words);
}
