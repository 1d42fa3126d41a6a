/**
 * Linkifiers: realm regex patterns whose matches become links built from a URL template
 * (api-notes §g). Patterns are written for Python-style engines, so `(?P<name>...)` groups are
 * translated; a pattern JavaScript cannot compile is skipped rather than failing the render.
 */
import type { MarkdownLinkifier } from './context';
import { expandUriTemplate } from './uri-template';
import { sanitizeUrl } from './url';
import { matchWebLink, mayStartLinkAfter } from './web-link';

export interface CompiledLinkifier {
  readonly id: number;
  /** Matches at lastIndex only; includes the "no letter or digit right after" rule. */
  readonly atPosition: RegExp;
  /** Finds every match in a text, including the "allowed before" rule (for topics). */
  readonly anywhere: () => RegExp;
  readonly urlTemplate: string;
}

/** A match may start at the start of the text, after whitespace, or after ' " ( , : < */
const BEFORE_UNICODE = String.raw`(?<=^|[\s\u0085\p{Z}'"(,:<])`;
const AFTER_UNICODE = String.raw`(?=$|[^\p{L}\p{N}])`;
const BEFORE_ASCII = String.raw`(?<=^|[\s\u0085'"(,:<])`;
const AFTER_ASCII = String.raw`(?=$|[^A-Za-z0-9\u00C0-\uFFFF])`;

function translatePattern(pattern: string): string {
  return pattern.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
}

function compileOne(linkifier: MarkdownLinkifier): CompiledLinkifier | null {
  const source = translatePattern(linkifier.pattern);
  for (const unicode of [true, false]) {
    const flags = unicode ? 'u' : '';
    const before = unicode ? BEFORE_UNICODE : BEFORE_ASCII;
    const after = unicode ? AFTER_UNICODE : AFTER_ASCII;
    try {
      const atPosition = new RegExp(`(?:${source})${after}`, `${flags}y`);
      return {
        id: linkifier.id,
        atPosition,
        anywhere: () => new RegExp(`${before}(?:${source})${after}`, `${flags}g`),
        urlTemplate: linkifier.url_template,
      };
    } catch {
      // try again without the `u` flag, which rejects some escapes Python accepts
    }
  }
  return null;
}

export function compileLinkifiers(linkifiers: readonly MarkdownLinkifier[]): CompiledLinkifier[] {
  const compiled: CompiledLinkifier[] = [];
  for (const linkifier of linkifiers) {
    const one = compileOne(linkifier);
    if (one !== null) compiled.push(one);
  }
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

/** The first linkifier (in realm order) matching at the start of `text`. */
export function matchLinkifierAt(linkifiers: readonly CompiledLinkifier[], text: string): LinkifierMatch | null {
  for (const linkifier of linkifiers) {
    linkifier.atPosition.lastIndex = 0;
    const match = linkifier.atPosition.exec(text);
    if (match === null || match[0] === '') continue;
    const url = sanitizeUrl(expandUriTemplate(linkifier.urlTemplate, match.groups ?? {}));
    return { text: match[0], url };
  }
  return null;
}

/** Whether some linkifier matches at `index` of `text` (where plain-text runs must stop). */
export function linkifierMatchesAt(linkifiers: readonly CompiledLinkifier[], text: string, index: number): boolean {
  return linkifiers.some((linkifier) => {
    linkifier.atPosition.lastIndex = index;
    const match = linkifier.atPosition.exec(text);
    return match !== null && match[0] !== '';
  });
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
export function findTopicLinks(linkifiers: readonly CompiledLinkifier[], topic: string): { text: string; url: string }[] {
  const candidates: TopicLinkCandidate[] = [];
  for (const linkifier of linkifiers) {
    for (const match of topic.matchAll(linkifier.anywhere())) {
      if (match[0] === '') continue;
      candidates.push({
        text: match[0],
        url: expandUriTemplate(linkifier.urlTemplate, match.groups ?? {}),
        index: match.index,
      });
    }
  }
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
