/**
 * Linkifiers: realm regex patterns whose matches become links built from a URL template
 * (api-notes §g). Patterns are written for Python-style engines, so `(?P<name>...)` groups are
 * translated. An administrator's pattern runs inside every render, so it runs on V8's
 * linear-time engine (the public server runs linkifiers on RE2, which is linear too): a pattern
 * that engine cannot run (backreferences, lookaround) is refused when saved and skipped when
 * found stored; each scan is bounded and each render has a time budget for them, so no pattern
 * and no message can hold the shard for long.
 */
import { setFlagsFromString } from 'node:v8';
import type { MarkdownLinkifier } from './context';
import { expandUriTemplate } from './uri-template';
import { sanitizeUrl } from './url';
import { matchWebLink, mayStartLinkAfter } from './web-link';

// The `l` (linear) flag exists only with this engine enabled; flags are per process and idempotent,
// and this module is loaded before any linkifier is compiled.
setFlagsFromString('--enable-experimental-regexp-engine');

/** Longest pattern accepted: an engine's work per character grows with the pattern. */
export const MAX_LINKIFIER_PATTERN_LENGTH = 1000;

/**
 * Most work one scan may do, in characters times pattern weight (see `weightOf`): a few
 * milliseconds at most (measured up to ~20 ns a unit on crafted patterns). An ordinary pattern
 * scans a whole message at once; a heavy one scans a window of the text this long.
 */
const SCAN_UNITS = 1_000_000;
/** Time one render may spend scanning for linkifiers; past it the rest renders without them. */
const RENDER_SCAN_MS = 50;

export interface CompiledLinkifier {
  readonly id: number;
  /**
   * Leftmost match at or after lastIndex: group 1 is the linkifier's match, followed by the end
   * of the text or a character that is no letter or digit (consumed, since the linear engine has
   * no lookahead; the public server's pattern does the same with a capture group).
   */
  readonly scanner: RegExp;
  /** The same, preceded by the start of the text or a character a match may follow (topics). */
  readonly anywhere: RegExp;
  readonly urlTemplate: string;
  /** Estimated engine work per character scanned. */
  readonly weight: number;
}

/** A match may start at the start of the text, after whitespace, or after ' " ( , : < */
const BEFORE = String.raw`(^|[\s\u0085'"(,:<])`;
// What may follow a match: no ASCII letter or digit and nothing from U+00C0 on (the engine has
// no `u` flag, so no Unicode letter classes). Spelled as the characters allowed, since the
// engine matches a negated class reaching U+FFFF wrongly.
const AFTER = String.raw`(?:$|[\x00-\x2F\x3A-\x40\x5B-\x60\x7B-\xBF])`;

function translatePattern(pattern: string): string {
  return pattern.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
}

/**
 * The linear engine's work per character grows with the automaton's size: the pattern's length,
 * its capture groups (copied along every live path) and bounded repetition (copies of its atom).
 */
function weightOf(source: string): number {
  const groups = source.split('(').length - 1;
  const repeated = /\{\d+(,\d*)?\}/.test(source) ? 16 : 1;
  return Math.max(1, source.length) * (groups + 2) * repeated;
}

function compileOne(linkifier: MarkdownLinkifier): CompiledLinkifier | null {
  if (linkifier.pattern.length > MAX_LINKIFIER_PATTERN_LENGTH) return null;
  const source = translatePattern(linkifier.pattern);
  try {
    return {
      id: linkifier.id,
      scanner: new RegExp(`(${source})${AFTER}`, 'lg'),
      anywhere: new RegExp(`${BEFORE}(${source})${AFTER}`, 'lg'),
      urlTemplate: linkifier.url_template,
      weight: weightOf(source),
    };
  } catch {
    // Not a pattern, or not one the linear engine can run.
    return null;
  }
}

/** Why a pattern cannot be a linkifier, or null when it can. */
export function linkifierPatternProblem(pattern: string): 'too_long' | 'invalid' | 'not_linear' | null {
  if (pattern.length > MAX_LINKIFIER_PATTERN_LENGTH) return 'too_long';
  if (compileOne({ id: 0, pattern, url_template: '' }) !== null) return null;
  try {
    new RegExp(translatePattern(pattern));
    return 'not_linear';
  } catch {
    return 'invalid';
  }
}

/**
 * Compiled patterns per linkifier list: a realm's render context keeps its list while the
 * linkifiers are unchanged, and compiling for the linear engine costs more than a short
 * message's render. Sharing is safe: every scan sets `lastIndex` before it runs.
 */
const compiledLists = new WeakMap<readonly MarkdownLinkifier[], CompiledLinkifier[]>();

export function compileLinkifiers(linkifiers: readonly MarkdownLinkifier[]): CompiledLinkifier[] {
  const cached = compiledLists.get(linkifiers);
  if (cached) return cached;
  const compiled: CompiledLinkifier[] = [];
  for (const linkifier of linkifiers) {
    const one = compileOne(linkifier);
    if (one !== null) compiled.push(one);
  }
  compiledLists.set(linkifiers, compiled);
  return compiled;
}

const WHITESPACE_OR_SEPARATOR = /[\s\u0085\p{Z}'"(,:<]/u;

export function mayStartLinkifierAfter(previous: string): boolean {
  return previous === '' || WHITESPACE_OR_SEPARATOR.test(previous);
}

export interface LinkifierMatch {
  text: string;
  /** Sanitized target, or null when the template expands to a URL we may not link. */
  url: string | null;
}

interface FoundMatch {
  /** Where the match starts in the scanned text, or -1 when none starts at or after `from`. */
  start: number;
  text: string;
  groups: Record<string, string>;
}

const SCANS_KEPT = 4;

const NO_MATCH: FoundMatch = { start: -1, text: '', groups: {} };

/** A recent scan of one linkifier: no match starts in [from, found.start), or in [from, until) when none was found. */
interface LastScan {
  text: string;
  from: number;
  until: number;
  found: FoundMatch;
}

/**
 * The realm's linkifiers as one render uses them. The tokenizers ask "does a linkifier match
 * here?" at many positions of the same text (and of its suffixes), so each linkifier remembers
 * where its next match starts instead of scanning again, and all scans draw on one time budget.
 */
export class RenderLinkifiers {
  private scanMsLeft = RENDER_SCAN_MS;
  private readonly lastScans = new Map<CompiledLinkifier, LastScan[]>();

  constructor(private readonly compiled: readonly CompiledLinkifier[]) {}

  get isEmpty(): boolean {
    return this.compiled.length === 0;
  }

  /** The first linkifier (in realm order) matching at `index` of `text`. */
  matchAt(text: string, index: number): LinkifierMatch | null {
    for (const linkifier of this.compiled) {
      const found = this.nextMatch(linkifier, text, index);
      if (found.start !== index) continue;
      const url = sanitizeUrl(expandUriTemplate(linkifier.urlTemplate, found.groups));
      return { text: found.text, url };
    }
    return null;
  }

  /** Whether some linkifier matches at `index` of `text` (where plain-text runs must stop). */
  matchesAt(text: string, index: number): boolean {
    return this.compiled.some((linkifier) => this.nextMatch(linkifier, text, index).start === index);
  }

  /** Every match of every linkifier in a topic, before-rule included. */
  topicMatches(topic: string): { text: string; url: string; index: number }[] {
    const matches: { text: string; url: string; index: number }[] = [];
    for (const linkifier of this.compiled) {
      let from = 0;
      // Topics are short (60 characters): a pattern too heavy to scan one whole is skipped.
      while (from <= topic.length && this.windowFor(linkifier, topic.length - from) === topic.length - from) {
        linkifier.anywhere.lastIndex = from;
        const match = this.timed(() => linkifier.anywhere.exec(topic));
        if (match === null) break;
        const start = match.index + (match[1] ?? '').length;
        const text = match[2] ?? '';
        // The separator after a match may start the next one: resume right after the match.
        from = Math.max(start + text.length, match.index + 1);
        if (text === '') continue;
        matches.push({ text, url: expandUriTemplate(linkifier.urlTemplate, match.groups ?? {}), index: start });
      }
    }
    return matches;
  }

  private nextMatch(linkifier: CompiledLinkifier, text: string, index: number): FoundMatch {
    if (this.scanMsLeft <= 0) return NO_MATCH;
    const scans = this.lastScans.get(linkifier) ?? [];
    for (const last of scans) {
      // The tokenizers pass a text and then its suffixes: positions are kept from the text's end.
      const same = last.text === text;
      if (!same && !(last.text.length > text.length && last.text.endsWith(text))) continue;
      const shift = last.text.length - text.length;
      const at = index + shift;
      if (at < last.from || at > (last.found.start === -1 ? last.until : last.found.start)) continue;
      return last.found.start === -1 ? last.found : { ...last.found, start: last.found.start - shift };
    }
    const scan = this.scan(linkifier, text, index);
    // A few texts are kept: inner texts (emphasis, link labels) are lexed between suffixes of
    // their paragraph, which must not lose its scan.
    this.lastScans.set(linkifier, [scan, ...scans.slice(0, SCANS_KEPT - 1)]);
    return scan.found;
  }

  private scan(linkifier: CompiledLinkifier, text: string, from: number): LastScan {
    const none = NO_MATCH;
    let at = from;
    while (at <= text.length) {
      const window = this.windowFor(linkifier, text.length - at);
      if (window === 0) return { text, from, until: text.length, found: none };
      // A heavy pattern sees a window of the text: a match running past it is not found.
      const scanned = window === text.length - at ? text : text.slice(0, at + window);
      linkifier.scanner.lastIndex = at;
      const match = this.timed(() => linkifier.scanner.exec(scanned));
      if (match === null) return { text, from, until: scanned === text ? text.length : at + window - 1, found: none };
      const matched = match[1] ?? '';
      if (matched !== '')
        return { text, from, until: match.index, found: { start: match.index, text: matched, groups: match.groups ?? {} } };
      // An empty match links nothing; look on from the next position.
      at = match.index + 1;
    }
    return { text, from, until: text.length, found: none };
  }

  /** How many characters the next scan may read: 0 once the render's time is spent. */
  private windowFor(linkifier: CompiledLinkifier, remaining: number): number {
    if (this.scanMsLeft <= 0) return 0;
    return Math.min(remaining, Math.floor(SCAN_UNITS / linkifier.weight));
  }

  private timed<T>(scan: () => T): T {
    const started = performance.now();
    try {
      return scan();
    } finally {
      this.scanMsLeft -= performance.now() - started;
    }
  }
}

interface TopicLinkCandidate {
  text: string;
  url: string;
  index: number;
}

/** Splits a topic into the pieces bare URLs are looked for in. */
const TOPIC_URL_SEPARATORS = /[ !;),'"]/;

/**
 * Links in a topic (the message's `topic_links`): every linkifier match, plus bare URLs (completed
 * with `https://` when written without a scheme), in order, overlaps dropped (linkifiers win ties).
 */
export function findTopicLinks(linkifiers: RenderLinkifiers, topic: string): { text: string; url: string }[] {
  const candidates: TopicLinkCandidate[] = linkifiers.topicMatches(topic);
  let offset = 0;
  for (const piece of topic.split(TOPIC_URL_SEPARATORS)) {
    for (let start = 0; start < piece.length; start++) {
      if (!mayStartLinkAfter(piece[start - 1] ?? '')) continue;
      const end = matchWebLink(piece, start);
      if (end < 0) continue;
      const text = piece.slice(start, end);
      const url = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(text) ? text : `https://${text}`;
      candidates.push({ text, url, index: offset + start });
      break;
    }
    offset += piece.length + 1;
  }
  candidates.sort((a, b) => a.index - b.index);
  const links: { text: string; url: string }[] = [];
  let coveredUntil = 0;
  for (const candidate of candidates) {
    if (candidate.index < coveredUntil) continue;
    links.push({ text: candidate.text, url: candidate.url });
    coveredUntil = candidate.index + candidate.text.length;
  }
  return links;
}
