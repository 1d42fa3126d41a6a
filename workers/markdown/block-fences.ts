/**
 * Fenced blocks (api-notes §g): code (``` or ~~~, optional language), ```` ```quote ````,
 * ```` ```spoiler Header ```` and ```` ```math ````. A fence closes only on a line that is exactly
 * its opening fence. Quote and spoiler bodies are Markdown, so fences inside them nest; inside
 * code and math nothing but the closing fence counts. An unclosed fence runs to the end.
 */
import type { Lexer, Token, TokenizerAndRendererExtension, Tokens } from 'marked';
import { FENCE } from './block-lines';
import { lexNestedBlocks, mayNestBlocks } from './block-nesting';
import { canonicalLanguageName } from './code-languages';
import { escapeAttribute, escapeCodeBlock } from './escape';
import { highlightCode } from './highlight';
import { activeRenderState, type RenderedCode } from './render-state';
import { renderMathBlock } from './math';
import { isToken, type FencedCodeToken, type MathBlockToken, type SpoilerToken } from './tokens';

type FenceKind = 'code' | 'quote' | 'spoiler' | 'math';

function kindOf(language: string | undefined): FenceKind {
  switch (language?.toLowerCase()) {
    case 'quote':
    case 'quoted':
      return 'quote';
    case 'spoiler':
      return 'spoiler';
    case 'math':
      return 'math';
    default:
      return 'code';
  }
}

interface FencedRegion {
  raw: string;
  /** The lines between the fences, as written. */
  body: string[];
}

/** Finds where the block opened by `fence` on the first line of `src` ends. */
function scanFencedRegion(src: string, fence: string, kind: FenceKind): FencedRegion {
  const nests = (k: FenceKind): boolean => k === 'quote' || k === 'spoiler';
  const open: { fence: string; kind: FenceKind }[] = [{ fence, kind }];
  const outerDefault = activeRenderState().fenceDefaultLanguage;
  const body: string[] = [];
  let offset = src.indexOf('\n') + 1;
  if (offset === 0) return { raw: src, body };
  while (offset < src.length) {
    const newline = src.indexOf('\n', offset);
    const lineEnd = newline < 0 ? src.length : newline;
    const line = src.slice(offset, lineEnd);
    offset = newline < 0 ? src.length : newline + 1;
    const innermost = open[open.length - 1];
    if (innermost !== undefined && line.trimEnd() === innermost.fence) {
      open.pop();
      if (open.length === 0) return { raw: src.slice(0, offset), body };
    } else if (innermost !== undefined && nests(innermost.kind)) {
      const inner = FENCE.exec(line);
      if (inner !== null) {
        const inSpoiler = open.some((region) => region.kind === 'spoiler');
        open.push({ fence: inner[1] ?? '', kind: kindOf(inner[2] ?? (inSpoiler ? undefined : outerDefault)) });
      }
    }
    body.push(line);
  }
  return { raw: src, body };
}

/** Code keeps no trailing spaces on its lines and no blank lines at either end. */
function codeText(body: readonly string[]): string {
  return body
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

function tokenizeFencedBlock(lexer: Lexer, src: string): Tokens.Generic | undefined {
  const firstLineEnd = src.indexOf('\n');
  const opening = FENCE.exec(firstLineEnd < 0 ? src : src.slice(0, firstLineEnd));
  if (opening === null) return undefined;
  const fence = opening[1] ?? '';
  const state = activeRenderState();
  const language = opening[2] ?? state.fenceDefaultLanguage;
  const kind = kindOf(language);
  if ((kind === 'quote' || kind === 'spoiler') && !mayNestBlocks()) return undefined;
  const { raw, body } = scanFencedRegion(src, fence, kind);
  if (body.length === 0) return { type: 'space', raw };
  switch (kind) {
    case 'code': {
      const token: FencedCodeToken = { type: 'fencedCode', raw, language: language ?? null, text: codeText(body) };
      return token;
    }
    case 'math': {
      const token: MathBlockToken = { type: 'mathBlock', raw, text: body.map((line) => line.trimEnd()).join('\n') };
      return token;
    }
    case 'quote': {
      const text = body.join('\n');
      const token: Tokens.Blockquote = { type: 'blockquote', raw, text, tokens: lexNestedBlocks(lexer, text, true) };
      return token;
    }
    case 'spoiler': {
      const header = opening[3];
      state.spoilerDepth++;
      try {
        const token: SpoilerToken = {
          type: 'spoiler',
          raw,
          header: header === undefined ? [] : lexNestedBlocks(lexer, header, true),
          tokens: lexNestedBlocks(lexer, body.join('\n'), true),
        };
        return token;
      } finally {
        state.spoilerDepth--;
      }
    }
  }
}

/**
 * A block without a language may name one on its first line: `#!python`, `#!/usr/bin/python` or
 * `:::python` (fixture `codeblock_hilite_shebang_*`). The reference keeps that line in fenced
 * blocks; in indented blocks it drops it unless it names a path.
 */
const LANGUAGE_HEADER = /^(?:::+|#!)((?:\/\w+)*[/ ])?([\w#.+-]*)/;

export type HeaderLine = 'kept' | 'droppedWithoutPath';

/**
 * The highlighter's wrapper clients style, with token spans when the language (given, or named by
 * the header line) is one we highlight; `data-code-language` names only a given language.
 */
export function renderCodeBlock(text: string, language: string | null, headerLine: HeaderLine = 'kept'): string {
  const dataLanguage = language === null ? '' : ` data-code-language="${escapeAttribute(canonicalLanguageName(language))}"`;
  let code = text;
  let highlightAs = language;
  if (language === null) {
    const header = LANGUAGE_HEADER.exec(text);
    if (header !== null) {
      highlightAs = header[2] ?? '';
      if (headerLine === 'droppedWithoutPath' && header[1] === undefined) code = text.replace(/^.*\n?/, '');
    }
  }
  const plain = `${escapeCodeBlock(code)}\n`;
  activeRenderState().codeBlocks.push({ plain, highlighted: highlightAs === null ? undefined : highlightCode(`${code}\n`, highlightAs) });
  return `${CODE_BLOCK_START}${dataLanguage}><pre><span></span><code>${plain}</code></pre></div>\n`;
}

const CODE_BLOCK_START = '<div class="codehilite"';
const CODE_START = '<pre><span></span><code>';

/**
 * Puts the token spans into the sanitized HTML. The sanitizer would spend many times longer on a
 * highlighted block's spans than on the rest of the message, and they need no check: their
 * classes come from the lexers' tables and their text is escaped as the plain code is (a test
 * holds highlighted output to the sanitizer's allow-list). The k-th `<div class="codehilite"` is
 * the k-th block rendered (authors' text never yields that tag unescaped); if any block is not
 * found exactly as written, the message keeps its plain code.
 */
export function insertHighlightedCode(html: string, blocks: readonly RenderedCode[]): string {
  if (blocks.every((block) => block.highlighted === undefined)) return html;
  let result = '';
  let position = 0;
  for (const { plain, highlighted } of blocks) {
    const blockStart = html.indexOf(CODE_BLOCK_START, position);
    const codeStart = html.indexOf('>', blockStart) + 1 + CODE_START.length;
    if (blockStart < 0 || !html.startsWith(`${CODE_START}${plain}</code>`, codeStart - CODE_START.length)) return html;
    result += html.slice(position, codeStart) + (highlighted ?? plain);
    position = codeStart + plain.length;
  }
  return result + html.slice(position);
}

function renderFencedBlock(this: { parser: { parse(tokens: Token[]): string } }, token: Tokens.Generic): string | false {
  if (isToken(token, 'fencedCode')) return renderCodeBlock(token.text, token.language);
  if (isToken(token, 'mathBlock')) return renderMathBlock(token.text);
  if (isToken(token, 'spoiler')) {
    const header = this.parser.parse(token.header);
    const content = this.parser.parse(token.tokens);
    return (
      `<div class="spoiler-block"><div class="spoiler-header">\n${header}</div>` +
      `<div class="spoiler-content" aria-hidden="true">\n${content}</div></div>\n`
    );
  }
  return false;
}

export const fencedBlockExtension: TokenizerAndRendererExtension = {
  name: 'fencedCode',
  level: 'block',
  tokenizer(src) {
    return tokenizeFencedBlock(this.lexer, src);
  },
  renderer: renderFencedBlock,
};

export const mathBlockRenderer: TokenizerAndRendererExtension = { name: 'mathBlock', renderer: renderFencedBlock };
export const spoilerRenderer: TokenizerAndRendererExtension = { name: 'spoiler', renderer: renderFencedBlock };
