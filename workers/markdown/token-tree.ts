/** Child access over the mixed tree of marked's tokens and the dialect's own. */
import type { Token, Tokens } from 'marked';
import { isToken } from './tokens';

/** The child token lists of a token, in document order. */
export function childLists(token: Token): Token[][] {
  if (isToken(token, 'spoiler')) return [token.header, token.tokens];
  if (isToken(token, 'dialectList')) return [token.items];
  if (token.type === 'table') {
    const table = token as Tokens.Table;
    return [...table.header, ...table.rows.flat()].map((cell) => cell.tokens);
  }
  const generic = token as Tokens.Generic;
  return generic.tokens === undefined ? [] : [generic.tokens];
}

/** Calls `visit` on every token in document order, telling it whether it sits inside a quote. */
export function walkTokens(tokens: readonly Token[], visit: (token: Token, inQuote: boolean) => void, inQuote = false): void {
  for (const token of tokens) {
    visit(token, inQuote);
    const quoted = inQuote || token.type === 'blockquote';
    for (const list of childLists(token)) walkTokens(list, visit, quoted);
  }
}
