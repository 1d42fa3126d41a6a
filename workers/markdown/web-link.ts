/**
 * Bare-URL detection (api-notes §g "autolinks for bare URLs/domains/emails"), written as a small
 * matcher rather than one regex so the shortest-match and nested-parenthesis rules read plainly:
 *
 * - a link starts at the start of the text or after whitespace or one of ' " ( , : <
 * - it is `http(s)://host[/path]`, or `name.tld[/path]` with a known TLD, or `user@host.tld`, or a
 *   bitcoin address;
 * - it is the shortest such text that is followed by optional closing punctuation
 *   (! : ; ? ) , . ' " >) and then whitespace or the end;
 * - a path may hold balanced parentheses nested at most seven deep.
 */
import { TLD_TABLE } from './tld-table';

const KNOWN_TLDS = new Set(TLD_TABLE.split('\n'));
const LONGEST_TLD = Math.max(...[...KNOWN_TLDS].map((tld) => tld.length));

const WORD = /[\p{L}\p{N}_]/u;
const WHITESPACE = /\s/u;
const ALLOWED_BEFORE = /[\s'"(,:<]/u;
const TRAILING_PUNCTUATION = new Set(['!', ':', ';', '?', ')', ',', '.', "'", '"', '>']);
const MAX_PAREN_DEPTH = 7;
const BITCOIN_ADDRESS = /^bitcoin:[13][a-km-zA-HJ-NP-Z1-9]{25,34}/;

/** Characters are compared one UTF-16 unit at a time; astral letters are rare in URLs. */
function isWord(char: string | undefined): boolean {
  return char !== undefined && WORD.test(char);
}

function isHostChar(char: string | undefined): boolean {
  return char !== undefined && (isWord(char) || char === '.' || char === ':' || char === '@' || char === '-');
}

/** True when a link may start right after `previous` ('' at the start of the text). */
export function mayStartLinkAfter(previous: string): boolean {
  return previous === '' || ALLOWED_BEFORE.test(previous);
}

/** A link may end at `end` if only closing punctuation stands between it and whitespace or the end. */
function endsLink(text: string, end: number): boolean {
  let index = end;
  while (index < text.length && TRAILING_PUNCTUATION.has(text[index] ?? '')) index++;
  return index === text.length || WHITESPACE.test(text[index] ?? '');
}

/** Shortest path (starting with the '/' at `slash`) after which the link may end, or -1. */
function matchPath(text: string, slash: number): number {
  let depth = 0;
  for (let index = slash + 1; ; index++) {
    if (depth === 0 && endsLink(text, index)) return index;
    const char = text[index];
    if (char === undefined || char === '"' || WHITESPACE.test(char)) return -1;
    if (char === '(') {
      if (++depth > MAX_PAREN_DEPTH) return -1;
    } else if (char === ')') {
      if (--depth < 0) return -1;
    }
  }
}

/** After a host that ends at `end`: a path if one follows, else the end of the link. */
function finishAfterHost(text: string, end: number): number {
  if (text[end] === '/') {
    const withPath = matchPath(text, end);
    if (withPath >= 0) return withPath;
  }
  return endsLink(text, end) ? end : -1;
}

function matchSchemeUrl(text: string, start: number): number {
  const scheme = /^https?:\/\//.exec(text.slice(start, start + 8));
  if (scheme === null) return -1;
  const hostStart = start + scheme[0].length;
  let hostEnd = hostStart;
  while (isHostChar(text[hostEnd])) hostEnd++;
  // The host is matched lazily: the shortest host after which the link can end wins.
  for (let end = hostStart + 1; end <= hostEnd; end++) {
    if (end === hostEnd) return finishAfterHost(text, end);
    if (endsLink(text, end)) return end;
  }
  return -1;
}

/** Ends of the dot-terminated labels (`foo.` `bar.`) that start at `start`, longest first. */
function labelPrefixEnds(text: string, start: number): number[] {
  const ends: number[] = [];
  let index = start;
  for (;;) {
    const labelStart = index;
    while (isWord(text[index]) || text[index] === '-') index++;
    if (index === labelStart || text[index] !== '.') break;
    index++;
    ends.push(index);
  }
  return ends.reverse();
}

function matchDomainUrl(text: string, start: number): number {
  for (const tldStart of labelPrefixEnds(text, start)) {
    let runEnd = tldStart;
    while (runEnd - tldStart < LONGEST_TLD && (isWord(text[runEnd]) || text[runEnd] === '-')) runEnd++;
    for (let tldEnd = runEnd; tldEnd > tldStart; tldEnd--) {
      if (!KNOWN_TLDS.has(text.slice(tldStart, tldEnd))) continue;
      const end = finishAfterHost(text, tldEnd);
      if (end >= 0) return end;
    }
  }
  return -1;
}

function matchEmail(text: string, start: number): number {
  const isEmailChar = (char: string | undefined): boolean => isWord(char) || char === '.' || char === '-';
  let at = start;
  while (isEmailChar(text[at])) at++;
  if (at === start || text[at] !== '@') return -1;
  let runEnd = at + 1;
  while (isEmailChar(text[runEnd])) runEnd++;
  // `host.tld`: the host part is greedy, then the word after its last chosen dot.
  for (let dot = runEnd - 1; dot > at + 1; dot--) {
    if (text[dot] !== '.') continue;
    let wordEnd = dot + 1;
    while (isWord(text[wordEnd]) && wordEnd < runEnd) wordEnd++;
    for (let end = wordEnd; end > dot + 1; end--) if (endsLink(text, end)) return end;
  }
  return -1;
}

function matchBitcoin(text: string, start: number): number {
  const address = BITCOIN_ADDRESS.exec(text.slice(start, start + 50));
  if (address === null) return -1;
  for (let end = start + address[0].length; end >= start + 'bitcoin:'.length + 26; end--) {
    if (endsLink(text, end)) return end;
  }
  return -1;
}

/**
 * The end index of a link starting exactly at `start`, or -1. The caller checks that the text
 * before `start` allows a link (mayStartLinkAfter).
 */
export function matchWebLink(text: string, start: number): number {
  const first = text[start];
  if (first === undefined || !(isWord(first) || first === '.' || first === '-')) return -1;
  for (const matcher of [matchSchemeUrl, matchDomainUrl, matchEmail, matchBitcoin]) {
    const end = matcher(text, start);
    if (end > start) return end;
  }
  return -1;
}

/** Index of the first place in `text` (after index 0) where a link could start, or -1. */
export function nextLinkCandidate(text: string): number {
  for (let index = 1; index < text.length; index++) {
    const char = text[index] ?? '';
    if ((isWord(char) || char === '.' || char === '-') && mayStartLinkAfter(text[index - 1] ?? '')) {
      return index;
    }
  }
  return -1;
}
