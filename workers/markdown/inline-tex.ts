/** Inline math `$$...$$` (api-notes §g); the formula is rendered by math.ts. */
import type { Token, TokenizerAndRendererExtension, Tokens } from 'marked';
import { INLINE_TEX, mayCloseInlineTexBefore, mayOpenInlineTexAfter, renderInlineTex } from './math';
import { isToken, precedingChar, type TexToken } from './tokens';

function tokenizeInlineTex(src: string, tokens: Token[]): TexToken | undefined {
  if (!src.startsWith('$$') || !mayOpenInlineTexAfter(precedingChar(tokens))) return undefined;
  const match = INLINE_TEX.exec(src);
  if (match === null || !mayCloseInlineTexBefore(src[match[0].length] ?? '')) return undefined;
  return { type: 'inlineTex', raw: match[0], tex: match[1] ?? '' };
}

export const inlineTexExtension: TokenizerAndRendererExtension = {
  name: 'inlineTex',
  level: 'inline',
  tokenizer: (src, tokens) => tokenizeInlineTex(src, tokens),
  renderer: (token: Tokens.Generic) => (isToken(token, 'inlineTex') ? renderInlineTex(token.tex) : false),
};
