/**
 * Line-level rules shared by the block tokenizers (api-notes §g "Block level"). The dialect
 * decides blocks line by line, so these work on single lines of already-normalized text.
 */

/**
 * A fence line: ``` or ~~~ (three or more), then optionally a language (`.py`, `{python}`) and a
 * header for the blocks that take one (```` ```spoiler Title ````). Only at column 0, and a header
 * may not contain backticks or tildes, so "~~~~x ~~~" is plain text.
 */
export const FENCE = /^(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+,\-./#]+)[ ]*([^ ~`][^~`]*)?\}?)?$/;

/** `# Heading`: hashes at column 0 followed by whitespace; seven hashes are text. */
export const HEADING_LINE = /^#{1,6}[ \t]/;

/** `---`, `***`, `___`, possibly spaced. */
export const RULE_LINE = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:_[ \t]*){3,}|(?:\*[ \t]*){3,})$/;

const QUOTE_LINE = /^ {0,3}>/;
const BARE_QUOTE_LINE = /^ {0,3}>\s*$/;

export function isBlank(line: string): boolean {
  return /^[ \t]*$/.test(line);
}

export function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** Lines that end a paragraph, a list block or a quote's lazy continuation. */
export function interruptsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING_LINE.test(line) || RULE_LINE.test(line);
}

/**
 * The lines of `src` from `from` up to (not including) the next blank line, with the offset just
 * past the last of them (past its newline, if it has one).
 */
export function splitLinesUntilBlank(src: string, from = 0): string[] {
  const lines: string[] = [];
  let offset = from;
  while (offset <= src.length) {
    const newline = src.indexOf('\n', offset);
    const line = newline < 0 ? src.slice(offset) : src.slice(offset, newline);
    if (isBlank(line) || (newline < 0 && line === '')) break;
    lines.push(line);
    if (newline < 0) break;
    offset = newline + 1;
  }
  return lines;
}

/** The raw source text covered by `count` whole lines of `src`, newline included if present. */
export function rawOfLines(src: string, lines: readonly string[], count: number): string {
  let length = 0;
  for (let index = 0; index < count; index++) length += (lines[index] ?? '').length + 1;
  return src.slice(0, Math.min(length, src.length));
}

/**
 * How many of `lines` (the lines up to the next blank line) form a quote starting at `lines[0]`,
 * or 0 when none starts there. A quote line starts with `>`; later lines without `>` continue it
 * unless they start a heading, rule or fence. Lines holding nothing but `>` are not a quote, so a
 * lone `>` is text (api-notes §g, fixture `empty_single_blockquote`).
 */
export function quoteLineCount(lines: readonly string[]): number {
  const first = lines[0];
  if (first === undefined || !QUOTE_LINE.test(first)) return 0;
  let count = 1;
  while (count < lines.length) {
    const line = lines[count] ?? '';
    if (!QUOTE_LINE.test(line) && interruptsBlock(line)) break;
    count++;
  }
  return lines.slice(0, count).every((line) => BARE_QUOTE_LINE.test(line)) ? 0 : count;
}

/** The text of a quote line without its marker: `> text` -> `text`; lazy lines are kept. */
export function unquoteLine(line: string): string {
  if (line.trim() === '>') return '';
  const quoted = /^ {0,3}> ?(.*)$/.exec(line);
  return quoted === null ? line : (quoted[1] ?? '');
}

/** Reads the lines of a source text on demand (block tokenizers rarely need all of them). */
export class LineReader {
  private readonly starts: number[] = [0];

  constructor(private readonly src: string) {}

  /** Line `index` without its newline, or undefined past the last line. */
  line(index: number): string | undefined {
    while (this.starts.length <= index) {
      const newline = this.src.indexOf('\n', this.starts[this.starts.length - 1]);
      if (newline < 0) return undefined;
      this.starts.push(newline + 1);
    }
    const start = this.starts[index] ?? this.src.length;
    const newline = this.src.indexOf('\n', start);
    return this.src.slice(start, newline < 0 ? this.src.length : newline);
  }

  /** The source of lines [0, count), with the newline after the last one if there is one. */
  raw(count: number): string {
    if (count === 0) return '';
    this.line(count);
    return this.src.slice(0, this.starts[count] ?? this.src.length);
  }
}
