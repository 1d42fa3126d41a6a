/**
 * Emoji (api-notes §g): `:name:` (realm emoji first, then the built-in image emoji, then Unicode
 * names), Unicode emoji characters, and the optional emoticon translation (`:)` -> :smile:).
 * None of them apply inside link text, whose text the dialect leaves alone.
 */
import type { Token, TokenizerAndRendererExtension, Tokens } from 'marked';
import { codeOfEmojiText, emojiCodeForName, emojiNameForCode, SERVICE_EXTRA_EMOJI_IMAGE, SERVICE_EXTRA_EMOJI_NAME } from './emoji';
import { escapeAttribute, escapeLiteral } from './escape';
import { activeRenderState } from './render-state';
import { isToken, precedingChar, type EmojiToken } from './tokens';

const EMOJI_SYNTAX = /^:([\p{L}\p{N}_+-]+):/u;

function emojiByName(raw: string, name: string): EmojiToken | null {
  const realmEmoji = activeRenderState().realmEmoji(name);
  if (realmEmoji !== undefined) return { type: 'emoji', raw, name, kind: 'image', src: realmEmoji.source_url };
  if (name === SERVICE_EXTRA_EMOJI_NAME) return { type: 'emoji', raw, name, kind: 'image', src: SERVICE_EXTRA_EMOJI_IMAGE };
  const code = emojiCodeForName(name);
  return code === undefined ? null : { type: 'emoji', raw, name, kind: 'unicode', code };
}

function tokenizeEmojiSyntax(src: string, inLink: boolean): EmojiToken | Tokens.Text | undefined {
  if (src[0] !== ':' || inLink) return undefined;
  const match = EMOJI_SYNTAX.exec(src);
  if (match === null) return undefined;
  // An unknown name is consumed as text, so its closing colon cannot open another emoji.
  return emojiByName(match[0], match[1] ?? '') ?? { type: 'text', raw: match[0], text: match[0] };
}

/** Emoticon -> emoji name, tried in this order at each position. */
const EMOTICONS: ReadonlyArray<readonly [string, string]> = [
  [':)', 'smile'],
  ['(:', 'smile'],
  [':(', 'frown'],
  ['<3', 'heart'],
  [':|', 'neutral'],
  [':/', 'confused'],
  [';)', 'wink'],
  [':D', 'grinning'],
  [':o', 'open_mouth'],
  [':O', 'open_mouth'],
  [':p', 'stuck_out_tongue'],
  [':P', 'stuck_out_tongue'],
];

/** An emoticon must stand between these characters (or the ends of the text). */
const EMOTICON_BOUNDARY = new Set([',', '.', ';', '?', '!', '(', ')', '[', ']', ' ', '"', "'", '\n', '\t']);

function isEmoticonBoundary(char: string): boolean {
  return char === '' || EMOTICON_BOUNDARY.has(char);
}

function tokenizeEmoticon(src: string, tokens: Token[], inLink: boolean): EmojiToken | undefined {
  if (inLink || !activeRenderState().translateEmoticons || !isEmoticonBoundary(precedingChar(tokens))) return undefined;
  for (const [emoticon, name] of EMOTICONS) {
    if (!src.startsWith(emoticon) || !isEmoticonBoundary(src[emoticon.length] ?? '')) continue;
    const code = emojiCodeForName(name);
    if (code !== undefined) return { type: 'emoji', raw: emoticon, name, kind: 'unicode', code };
  }
  return undefined;
}

/** One emoji as written in text (UTS #51 shape), including keycaps, flags and tag sequences. */
const EMOJI_ELEMENT = String.raw`(?:\p{Regional_Indicator}\p{Regional_Indicator}|\p{Emoji}(?:\p{Emoji_Modifier}|\uFE0F\u20E3?|\u20E3|[\u{E0020}-\u{E007E}]+\u{E007F})?)`;
const EMOJI_SEQUENCE = new RegExp(`^${EMOJI_ELEMENT}(?:\\u200D${EMOJI_ELEMENT})*`, 'u');

function tokenizeUnicodeEmoji(src: string, inLink: boolean): EmojiToken | undefined {
  if (inLink) return undefined;
  const match = EMOJI_SEQUENCE.exec(src);
  if (match === null) return undefined;
  const code = codeOfEmojiText(match[0]);
  const name = emojiNameForCode(code);
  return name === undefined ? undefined : { type: 'emoji', raw: match[0], name, kind: 'unicode', code };
}

function renderEmoji(token: Tokens.Generic): string | false {
  if (!isToken(token, 'emoji')) return false;
  const title = escapeAttribute(token.name.replace(/_/g, ' '));
  const colonName = `:${token.name}:`;
  if (token.kind === 'image') {
    return `<img alt="${escapeAttribute(colonName)}" class="emoji" src="${escapeAttribute(token.src)}" title="${title}">`;
  }
  return `<span aria-label="${title}" class="emoji emoji-${escapeAttribute(token.code)}" role="img" title="${title}">${escapeLiteral(colonName)}</span>`;
}

export const emojiExtension: TokenizerAndRendererExtension = {
  name: 'emoji',
  level: 'inline',
  tokenizer(src, tokens) {
    const inLink = this.lexer.state.inLink;
    return tokenizeEmojiSyntax(src, inLink) ?? tokenizeEmoticon(src, tokens, inLink) ?? tokenizeUnicodeEmoji(src, inLink);
  },
  renderer: renderEmoji,
};

/** Characters that can begin an emoji, so plain-text runs stop in front of them. */
export const EMOJI_START = /[\p{Extended_Pictographic}\p{Regional_Indicator}]|[#*0-9](?=\uFE0F?\u20E3)/u;
