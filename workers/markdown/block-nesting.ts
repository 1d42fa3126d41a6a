/**
 * Blocks inside blocks (quotes, spoilers, list items) are lexed recursively. Nesting is capped so
 * that a message of 5000 `>` cannot exhaust the stack; past the cap, markers are plain text.
 */
import type { Lexer, Token } from 'marked';
import { activeRenderState } from './render-state';

const MAX_BLOCK_NESTING = 32;

export function mayNestBlocks(): boolean {
  return activeRenderState().blockDepth < MAX_BLOCK_NESTING;
}

/** Lexes `text` as the body of a container; `paragraphs` is false for tight list items. */
export function lexNestedBlocks(lexer: Lexer, text: string, paragraphs: boolean): Token[] {
  const state = activeRenderState();
  const top = lexer.state.top;
  lexer.state.top = paragraphs;
  state.blockDepth++;
  try {
    return lexer.blockTokens(text, []);
  } finally {
    state.blockDepth--;
    lexer.state.top = top;
  }
}
