/**
 * Lists (api-notes §g): `*`, `-`, `+` or `1.` items at column 0 or 1; items indented by 2-3
 * spaces nest under the item above; other lines continue the item above as they are ("lazy").
 * Blocks after a blank line continue the list when they start with an item of the same type or
 * are indented by 2 or more. An item is loose (its paragraphs get <p>) when it is the first item
 * after such a blank line, or the last one before it; `start` is kept only when it is not 1.
 */
import type { Lexer, Token, TokenizerAndRendererExtension, Tokens } from 'marked';
import { FENCE, indentOf, interruptsBlock, isBlank, LineReader, RULE_LINE } from './block-lines';
import { lexNestedBlocks, mayNestBlocks } from './block-nesting';
import { isToken, type DialectListItemToken, type DialectListToken } from './tokens';

const ITEM_LINE = /^ ?([*+-]|\d+\.) +(.*)$/;
const NESTED_ITEM_LINE = /^ {2,3}(?:[*+-]|\d+\.) +/;

interface ItemDraft {
  /** The item's own text: its first line and its lazy continuation lines. */
  textLines: string[];
  /** Nested items (and what follows them) as written, still indented. */
  nestedLines: string[];
  /** Indented blocks that followed a blank line and belong to this item itself. */
  extraLines: string[];
  loose: boolean;
}

function isOrderedBullet(bullet: string): boolean {
  return bullet !== '*' && bullet !== '+' && bullet !== '-';
}

function itemLine(line: string, ordered: boolean): RegExpExecArray | null {
  const match = ITEM_LINE.exec(line);
  if (match === null || RULE_LINE.test(line)) return null;
  return isOrderedBullet(match[1] ?? '') === ordered ? match : null;
}

function dedent(line: string): string {
  return line.startsWith('  ') ? line.slice(2) : line;
}

/** Reads one blank-line-delimited block of items; returns the index after it. */
function readItemBlock(lines: LineReader, from: number, ordered: boolean, items: ItemDraft[], afterBlank: boolean): number {
  let index = from;
  for (let line = lines.line(index); line !== undefined; line = lines.line(++index)) {
    if (isBlank(line) || (index > from && interruptsBlock(line))) break;
    const item = itemLine(line, ordered);
    const last = items[items.length - 1];
    if (item !== null || last === undefined) {
      items.push({ textLines: [item?.[2] ?? line], nestedLines: [], extraLines: [], loose: afterBlank && index === from });
    } else if (NESTED_ITEM_LINE.test(line) || last.nestedLines.length > 0) {
      last.nestedLines.push(line);
    } else {
      last.textLines.push(line);
    }
  }
  return index;
}

/**
 * Reads an indented block that follows a blank line. Indented by 4 or more under an item whose
 * last part is a nested list, it continues that nested list; otherwise it is part of the item.
 */
function readIndentedBlock(lines: LineReader, from: number, last: ItemDraft): number {
  const block: string[] = [];
  let index = from;
  for (let line = lines.line(index); line !== undefined; line = lines.line(++index)) {
    if (isBlank(line) || (index > from && FENCE.test(line))) break;
    block.push(line);
  }
  const level = Math.floor(indentOf(block[0] ?? '') / 2);
  if (level >= 2 && last.nestedLines.length > 0 && last.extraLines.length === 0) {
    last.nestedLines.push('', ...block);
  } else {
    // One level in, the item's text becomes a paragraph; deeper, it stays as it was.
    if (level === 1) last.loose = true;
    if (last.extraLines.length > 0) last.extraLines.push('');
    last.extraLines.push(...block.map(dedent));
  }
  return index;
}

function itemToken(lexer: Lexer, draft: ItemDraft): DialectListItemToken {
  const tokens = lexNestedBlocks(lexer, draft.textLines.join('\n'), draft.loose);
  if (draft.nestedLines.length > 0) tokens.push(...lexNestedBlocks(lexer, draft.nestedLines.map(dedent).join('\n'), false));
  if (draft.extraLines.length > 0) tokens.push(...lexNestedBlocks(lexer, draft.extraLines.join('\n'), true));
  return { type: 'dialectListItem', raw: '', loose: draft.loose, tokens };
}

function tokenizeList(lexer: Lexer, src: string): DialectListToken | undefined {
  const firstLineEnd = src.indexOf('\n');
  const firstLine = firstLineEnd < 0 ? src : src.slice(0, firstLineEnd);
  const first = ITEM_LINE.exec(firstLine);
  if (first === null || RULE_LINE.test(firstLine) || !mayNestBlocks()) return undefined;
  const lines = new LineReader(src);
  const bullet = first[1] ?? '*';
  const ordered = isOrderedBullet(bullet);
  const items: ItemDraft[] = [];
  let index = readItemBlock(lines, 0, ordered, items, false);
  for (;;) {
    let next = index;
    while (isBlank(lines.line(next) ?? 'end')) next++;
    const last = items[items.length - 1];
    const following = lines.line(next);
    if (next === index || following === undefined || last === undefined) break;
    if (itemLine(following, ordered) !== null) {
      last.loose = true;
      index = readItemBlock(lines, next, ordered, items, true);
    } else if (indentOf(following) >= 2) {
      index = readIndentedBlock(lines, next, last);
    } else {
      break;
    }
  }
  const raw = lines.raw(index);
  return {
    type: 'dialectList',
    raw,
    ordered,
    // The number as written ("03" stays "03"), as the dialect does.
    start: ordered ? bullet.slice(0, -1) : '1',
    items: items.map((draft) => itemToken(lexer, draft)),
  };
}

function renderList(this: { parser: { parse(tokens: Token[], top?: boolean): string } }, token: Tokens.Generic): string | false {
  if (!isToken(token, 'dialectList')) return false;
  const tag = token.ordered ? 'ol' : 'ul';
  const start = token.ordered && token.start !== '1' ? ` start="${token.start}"` : '';
  const items = token.items
    .map((item) => (item.loose ? `<li>\n${this.parser.parse(item.tokens)}</li>\n` : `<li>${this.parser.parse(item.tokens, false)}</li>\n`))
    .join('');
  return `<${tag}${start}>\n${items}</${tag}>\n`;
}

export const listExtension: TokenizerAndRendererExtension = {
  name: 'dialectList',
  level: 'block',
  tokenizer(src) {
    return tokenizeList(this.lexer, src);
  },
  renderer: renderList,
};
