/**
 * marked's tokenizer, narrowed to the dialect (api-notes §g "Disabled vs CommonMark"): no raw HTML,
 * no reference links or definitions, no setext headings, no backslash escapes, no `_` emphasis,
 * no `<url>` autolinks. Fences, quotes, lists, links and bare URLs come from the dialect's
 * extensions instead; the overrides here give emphasis, code spans, strikethrough, line breaks,
 * headings and paragraphs the dialect's rules.
 */
import { Tokenizer, type Tokens } from 'marked';
import { FENCE, HEADING_LINE, RULE_LINE, quoteLineCount, splitLinesUntilBlank } from './block-lines';
import { EMOJI_START } from './inline-emoji';
import { activeRenderState } from './render-state';

/** Characters that may begin an inline construct; plain-text runs stop in front of them. */
const CONSTRUCT_START = new Set(['\n', '`', '*', '~', '[', '@', '#', ':', '$', '<', '!', '(', ';']);
/** After these, a bare URL or a linkifier match may begin, so text runs check what follows. */
const LINK_BOUNDARY = /[\s\u0085\p{Z}'"(,:<]/u;
/** LINK_BOUNDARY's answer for each ASCII character, looked up: text runs ask once per character. */
const ASCII_LINK_BOUNDARY = Array.from({ length: 128 }, (_, code) => LINK_BOUNDARY.test(String.fromCharCode(code)));

function isLinkBoundary(char: string): boolean {
  const code = char.charCodeAt(0);
  return code < 128 ? ASCII_LINK_BOUNDARY[code] === true : LINK_BOUNDARY.test(char);
}

function isWhitespace(char: string): boolean {
  const code = char.charCodeAt(0);
  return code < 128 ? code === 0x20 || (code >= 0x09 && code <= 0x0d) : /\s/.test(char);
}

/** `#`, `*` and digits may begin a keycap emoji; so may any non-ASCII character begin an emoji. */
function mayBeginEmoji(code: number): boolean {
  return code >= 0x80 || code === 0x23 || code === 0x2a || (code >= 0x30 && code <= 0x39);
}
const EMOJI_AT = new RegExp(EMOJI_START.source, 'uy');

const STRONG_EMPHASIS = /^\*\*\*(?!\s)([^*^\n]+)(?<!\s)\*\*\*/;
const STRONG = /^\*\*([^\n]+?)\*\*/;
/** No space just inside the stars, no star or newline inside (and, as in the dialect, no `^`). */
const EMPHASIS = /^\*(?!\s)([^*^\n]+)(?<!\s)\*/;
const STRIKETHROUGH = /^~~([^~\n]+?)~~(?!~)/;
/** Backtick code on one line; inner spaces are kept (fixture `inline_code_spaces`). */
const CODE_SPAN = /^(`+)([^\n]+?)(?<!`)\1(?!`)/;
const HEADING = /^(#{1,6})[ \t]([^\n]*?)#*(?:\n|$)/;

/** Bare URLs, domains and emails all hold a `.`, `@` or `:` before the next whitespace. */
function linkCharEnd(src: string, index: number): { linkChar: boolean; end: number } {
  for (let at = index; at < src.length; at++) {
    const char = src[at] ?? '';
    if (char === '.' || char === '@' || char === ':') return { linkChar: true, end: at };
    if (isWhitespace(char)) return { linkChar: false, end: at };
  }
  return { linkChar: false, end: src.length };
}

/**
 * Finds where a plain-text run starting at 0 ends: before the next character that may begin an
 * inline construct, and before a word (after whitespace or opening punctuation) that may be a
 * bare URL or a linkifier match.
 */
function plainTextEnd(src: string, from: number): number {
  const linkifiers = activeRenderState().linkifiers;
  // Words already known to hold no link character need no second look (keeps this linear).
  let noLinkCharBefore = 0;
  for (let index = from; index < src.length; index++) {
    const char = src[index] ?? '';
    if (CONSTRUCT_START.has(char)) return index;
    if (index > 0 && isLinkBoundary(src[index - 1] as string)) {
      if (index >= noLinkCharBefore) {
        const word = linkCharEnd(src, index);
        if (word.linkChar) return index;
        noLinkCharBefore = word.end;
      }
      if (!linkifiers.isEmpty && linkifiers.matchesAt(src, index)) return index;
    }
    if (mayBeginEmoji(char.charCodeAt(0))) {
      EMOJI_AT.lastIndex = index;
      if (EMOJI_AT.test(src)) return index;
    }
  }
  return src.length;
}

export class DialectTokenizer extends Tokenizer {
  // ---- block level ----

  override fences(): undefined {
    return undefined; // block-fences.ts
  }

  override blockquote(): undefined {
    return undefined; // block-quote.ts
  }

  override list(): undefined {
    return undefined; // block-list.ts
  }

  override html(): undefined {
    return undefined;
  }

  override def(): undefined {
    return undefined;
  }

  override lheading(): undefined {
    return undefined;
  }

  /** `#` at column 0 and a space; trailing `#`s are dropped. */
  override heading(src: string): Tokens.Heading | undefined {
    const match = HEADING.exec(src);
    if (match === null) return undefined;
    const text = (match[2] ?? '').trim();
    return { type: 'heading', raw: match[0], depth: (match[1] ?? '#').length, text, tokens: this.lexer.inline(text) };
  }

  /** Runs to a blank line, a fence, heading or rule line, or the start of a quote. */
  override paragraph(src: string): Tokens.Paragraph | undefined {
    const lines = splitLinesUntilBlank(src);
    if (lines.length === 0) return undefined;
    // Once a `>` line turns out not to start a quote, no later line of this block can.
    let quoteMayStart = true;
    let count = 1;
    for (; count < lines.length; count++) {
      const line = lines[count] ?? '';
      if (FENCE.test(line) || HEADING_LINE.test(line) || RULE_LINE.test(line)) break;
      if (quoteMayStart && /^ {0,3}>/.test(line)) {
        if (quoteLineCount(lines.slice(count)) > 0) break;
        quoteMayStart = false;
      }
    }
    const raw = lines.slice(0, count).join('\n');
    const text = raw.replace(/^\s+/, '');
    return { type: 'paragraph', raw, text, tokens: this.lexer.inline(text) };
  }

  // ---- inline level ----

  override escape(): undefined {
    return undefined;
  }

  override tag(): undefined {
    return undefined;
  }

  override link(): undefined {
    return undefined; // inline-links.ts
  }

  override reflink(): undefined {
    return undefined;
  }

  override autolink(): undefined {
    return undefined;
  }

  override url(): undefined {
    return undefined; // inline-links.ts
  }

  override codespan(src: string): Tokens.Codespan | undefined {
    const match = CODE_SPAN.exec(src);
    return match === null ? undefined : { type: 'codespan', raw: match[0], text: match[2] ?? '' };
  }

  /** `***x***`, `**x**` and `*x*`, each on one line; only the first applies inside link text. */
  override emStrong(src: string): Tokens.Em | Tokens.Strong | undefined {
    if (src[0] !== '*') return undefined;
    const strongEmphasis = STRONG_EMPHASIS.exec(src);
    if (strongEmphasis !== null) {
      const text = strongEmphasis[1] ?? '';
      const emphasis: Tokens.Em = { type: 'em', raw: `*${text}*`, text, tokens: this.lexer.inlineTokens(text) };
      return { type: 'strong', raw: strongEmphasis[0], text, tokens: [emphasis] };
    }
    if (this.lexer.state.inLink) return undefined;
    const strong = STRONG.exec(src);
    if (strong !== null) {
      const text = strong[1] ?? '';
      return { type: 'strong', raw: strong[0], text, tokens: this.lexer.inlineTokens(text) };
    }
    const emphasis = EMPHASIS.exec(src);
    if (emphasis !== null) {
      const text = emphasis[1] ?? '';
      return { type: 'em', raw: emphasis[0], text, tokens: this.lexer.inlineTokens(text) };
    }
    return undefined;
  }

  /** `~~x~~`, spaces inside allowed (fixture `strikthrough_multiword_with_space_in_between`). */
  override del(src: string): Tokens.Del | undefined {
    if (this.lexer.state.inLink) return undefined;
    const match = STRIKETHROUGH.exec(src);
    if (match === null) return undefined;
    const text = match[1] ?? '';
    return { type: 'del', raw: match[0], text, tokens: this.lexer.inlineTokens(text) };
  }

  /** Every newline inside a paragraph is a line break (nl2br). */
  override br(src: string): Tokens.Br | undefined {
    return src[0] === '\n' ? { type: 'br', raw: '\n' } : undefined;
  }

  /**
   * Plain text up to the next place an inline construct could begin. A run of backticks or
   * tildes that did not open code or strikethrough is text as a whole.
   */
  override inlineText(src: string): Tokens.Text | undefined {
    if (src === '') return undefined;
    let end: number;
    const first = src[0] ?? '';
    if (first === '`' || first === '~') {
      end = 1;
      while (src[end] === first) end++;
    } else {
      end = plainTextEnd(src, (src.codePointAt(0) ?? 0) > 0xffff ? 2 : 1);
    }
    const text = src.slice(0, end);
    return { type: 'text', raw: text, text, escaped: false };
  }
}
