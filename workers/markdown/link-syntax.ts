/**
 * The `[text](target "title")` syntax, read in one pass. marked's own link rule backtracks
 * badly on long runs of unclosed `[x](` (tens of seconds for a 10 kB message), so the dialect
 * reads the three parts itself: balanced brackets, a target with balanced parentheses (or in
 * `<...>`), and an optional quoted or parenthesized title. Labels and targets longer than any
 * real link are not links, which keeps every attempt short.
 */

const MAX_LABEL_LENGTH = 1000;
const MAX_TARGET_LENGTH = 4000;

export interface LinkSyntax {
  raw: string;
  label: string;
  target: string;
  title: string | null;
}

function skipWhitespace(src: string, from: number): number {
  let index = from;
  let newlines = 0;
  while (index < src.length && (src[index] === ' ' || src[index] === '\t' || (src[index] === '\n' && newlines++ === 0))) index++;
  return index;
}

/** Index of the `]` closing the `[` at 0, or -1. */
function labelEnd(src: string): number {
  let depth = 0;
  const limit = Math.min(src.length, MAX_LABEL_LENGTH + 2);
  for (let index = 0; index < limit; index++) {
    const char = src[index];
    if (char === '[') depth++;
    else if (char === ']' && --depth === 0) return index;
  }
  return -1;
}

/** Reads the target starting at `from`; returns it and the index after it, or null. */
function readTarget(src: string, from: number): { target: string; end: number } | null {
  if (src[from] === '<') {
    const close = src.indexOf('>', from);
    if (close < 0 || close - from > MAX_TARGET_LENGTH) return null;
    const target = src.slice(from + 1, close);
    return /[\n<]/.test(target) ? null : { target, end: close + 1 };
  }
  let depth = 0;
  let index = from;
  for (; index < src.length && index - from <= MAX_TARGET_LENGTH; index++) {
    const char = src[index] ?? '';
    if (char <= ' ') break;
    if (char === '(') depth++;
    else if (char === ')') {
      if (depth === 0) break;
      depth--;
    }
  }
  return depth === 0 ? { target: src.slice(from, index), end: index } : null;
}

/** Reads an optional title at `from` (after whitespace); returns it and the index after it. */
function readTitle(src: string, from: number): { title: string | null; end: number } | null {
  const open = src[from];
  if (open !== '"' && open !== "'" && open !== '(') return { title: null, end: from };
  const close = src.indexOf(open === '(' ? ')' : open, from + 1);
  if (close < 0 || close - from > MAX_TARGET_LENGTH) return null;
  return { title: src.slice(from + 1, close), end: close + 1 };
}

/** `[label](target "title")` at the start of `src`, or null. */
export function readLinkSyntax(src: string): LinkSyntax | null {
  if (src[0] !== '[') return null;
  const closeBracket = labelEnd(src);
  if (closeBracket < 0 || src[closeBracket + 1] !== '(') return null;
  const target = readTarget(src, skipWhitespace(src, closeBracket + 2));
  if (target === null) return null;
  const titleStart = skipWhitespace(src, target.end);
  const title = titleStart > target.end ? readTitle(src, titleStart) : { title: null, end: titleStart };
  if (title === null) return null;
  const closeParen = skipWhitespace(src, title.end);
  if (src[closeParen] !== ')') return null;
  return { raw: src.slice(0, closeParen + 1), label: src.slice(1, closeBracket), target: target.target, title: title.title };
}
