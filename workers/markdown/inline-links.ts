/**
 * Links (api-notes §g): `[text](url)`, bare URLs, and linkifier matches. Every target goes
 * through sanitizeUrl; a `[text](url)` whose target is refused stays literal text. Link text is
 * not processed further except for the few constructs that bind tighter than links (code,
 * `***x***`, mentions, stream links, math, timestamps), so bare URLs, linkifiers, emoji and
 * emphasis never apply inside it.
 */
import type { Token, TokenizerAndRendererExtension, Tokens } from 'marked';
import { readLinkSyntax } from './link-syntax';
import { mayStartLinkifierAfter } from './linkifiers';
import { activeRenderState } from './render-state';
import { precedingChar } from './tokens';
import { relativeToRealm, sanitizeUrl } from './url';
import { matchWebLink, mayStartLinkAfter } from './web-link';

function plainLink(raw: string, href: string, text: string): Tokens.Link {
  return { type: 'link', raw, href, title: null, text, tokens: [{ type: 'text', raw: text, text }] };
}

function withRealmRelativeHref(href: string): string {
  return relativeToRealm(href, activeRenderState().realmUrl);
}

export const markdownLinkExtension: TokenizerAndRendererExtension = {
  name: 'markdownLink',
  level: 'inline',
  tokenizer(src: string, tokens: Token[]): Tokens.Link | undefined {
    // `![alt](url)` image syntax is not part of the dialect; neither is a link right after `!`.
    if (src[0] !== '[' || precedingChar(tokens) === '!') return undefined;
    const syntax = readLinkSyntax(src);
    if (syntax === null) return undefined;
    const sanitized = sanitizeUrl(syntax.target.trim());
    if (sanitized === null) return undefined;
    const href = withRealmRelativeHref(sanitized);
    if (syntax.label.trim() === '') return plainLink(syntax.raw, href, href);
    const lexer = this.lexer;
    lexer.state.inLink = true;
    const labelTokens = lexer.inlineTokens(syntax.label);
    lexer.state.inLink = false;
    return { type: 'link', raw: syntax.raw, href, title: syntax.title, text: syntax.label, tokens: labelTokens };
  },
};

export const webLinkExtension: TokenizerAndRendererExtension = {
  name: 'webLink',
  level: 'inline',
  tokenizer(src: string, tokens: Token[]): Tokens.Link | undefined {
    if (this.lexer.state.inLink || !mayStartLinkAfter(precedingChar(tokens))) return undefined;
    const end = matchWebLink(src, 0);
    if (end < 0) return undefined;
    const url = src.slice(0, end);
    const href = sanitizeUrl(url);
    return href === null ? undefined : plainLink(url, withRealmRelativeHref(href), url);
  },
};

export const linkifierExtension: TokenizerAndRendererExtension = {
  name: 'linkifier',
  level: 'inline',
  tokenizer(src: string, tokens: Token[]): Tokens.Link | undefined {
    if (this.lexer.state.inLink || !mayStartLinkifierAfter(precedingChar(tokens))) return undefined;
    const linkifiers = activeRenderState().linkifiers;
    if (linkifiers.isEmpty) return undefined;
    const match = linkifiers.matchAt(src, 0);
    if (match === null || match.url === null) return undefined;
    return plainLink(match.text, withRealmRelativeHref(match.url), match.text);
  },
};
