import { isStopWord } from './stop-words';

/**
 * The `search` narrow operand as full-text terms (api-notes §c). Words are split the way the
 * FTS5 `unicode61` tokenizer splits them (letters, digits and combining marks), so every term
 * we send is one the index can hold, and folded the way `remove_diacritics 2` folds them.
 */

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** Lower case without diacritics: the form both the index and highlighting compare. */
export function foldWord(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

function words(text: string): string[] {
  return (text.match(WORD) ?? []).map(foldWord).filter((word) => word !== '');
}

export interface SearchQuery {
  /** Each entry must match: a single word, or a quoted phrase's words in order. */
  phrases: string[][];
}

/**
 * Quoted parts are phrases; the rest are words, all required. Stop words outside phrases are
 * dropped unless the query has nothing else (then they are all kept).
 */
export function parseSearch(text: string): SearchQuery {
  const phrases: string[][] = [];
  const loose: string[] = [];
  // An unbalanced quote leaves its tail as plain words.
  const rest = text.replace(/"([^"]*)"/g, (_match, inner: string) => {
    const phrase = words(inner);
    if (phrase.length > 0) phrases.push(phrase);
    return ' ';
  });
  loose.push(...words(rest));
  const kept = loose.filter((word) => !isStopWord(word));
  const singles = phrases.length === 0 && kept.length === 0 ? loose : kept;
  return { phrases: [...phrases, ...singles.map((word) => [word])] };
}

/**
 * An FTS5 MATCH expression: each term is an FTS string ("..." with quotes doubled), so no
 * FTS syntax in user input (NEAR, OR, *, parentheses, column filters) ever reaches the parser.
 * Null when the query has no searchable word: it matches nothing.
 */
export function ftsExpression(query: SearchQuery): string | null {
  if (query.phrases.length === 0) return null;
  return query.phrases.map((phrase) => `"${phrase.join(' ').replace(/"/g, '""')}"`).join(' AND ');
}

/** The folded words to highlight in results. */
export function highlightWords(query: SearchQuery): ReadonlySet<string> {
  return new Set(query.phrases.flat());
}
