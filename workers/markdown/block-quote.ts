/**
 * `>` quotes (api-notes §g). A quote runs to the next blank line; lines without `>` continue it
 * lazily unless they start a heading, rule or fence. A blank line ends a quote (two quotes
 * separated by a blank line stay two quotes), and lines holding only `>` are not a quote.
 */
import type { Lexer, TokenizerAndRendererExtension, Tokens } from 'marked';
import { quoteLineCount, rawOfLines, splitLinesUntilBlank, unquoteLine } from './block-lines';
import { lexNestedBlocks, mayNestBlocks } from './block-nesting';

function tokenizeQuote(lexer: Lexer, src: string): Tokens.Blockquote | undefined {
  if (!/^ {0,3}>/.test(src) || !mayNestBlocks()) return undefined;
  const block = splitLinesUntilBlank(src);
  const count = quoteLineCount(block);
  if (count === 0) return undefined;
  // Quotes hold paragraphs even inside tight list items.
  const text = block.slice(0, count).map(unquoteLine).join('\n');
  return { type: 'blockquote', raw: rawOfLines(src, block, count), text, tokens: lexNestedBlocks(lexer, text, true) };
}

export const quoteExtension: TokenizerAndRendererExtension = {
  name: 'quote',
  level: 'block',
  tokenizer(src) {
    return tokenizeQuote(this.lexer, src);
  },
};
