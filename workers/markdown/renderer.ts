/**
 * marked's renderer with the dialect's HTML shapes (api-notes §g table): text escapes only
 * `& < >`, code blocks get the highlighter wrapper, tables and links are written the way the
 * dialect writes them, and every block ends with a newline (trimmed from the message at the end).
 */
import { Renderer, type Tokens } from 'marked';
import { renderCodeBlock } from './block-fences';
import { escapeAttribute, escapeLiteral, escapeText } from './escape';

export class DialectRenderer extends Renderer {
  override space(): string {
    return '';
  }

  /** Indented code blocks; fenced ones are rendered by block-fences.ts. */
  override code({ text }: Tokens.Code): string {
    return renderCodeBlock(text.replace(/\n+$/, ''), null, 'droppedWithoutPath');
  }

  override blockquote({ tokens }: Tokens.Blockquote): string {
    return `<blockquote>\n${this.parser.parse(tokens)}</blockquote>\n`;
  }

  /** Unreachable (raw HTML is never tokenized as HTML); escaped all the same. */
  override html({ text }: Tokens.HTML | Tokens.Tag): string {
    return escapeText(text);
  }

  override heading({ tokens, depth }: Tokens.Heading): string {
    return `<h${depth}>${this.parser.parseInline(tokens)}</h${depth}>\n`;
  }

  override hr(): string {
    return '<hr>\n';
  }

  override paragraph({ tokens }: Tokens.Paragraph): string {
    return `<p>${this.parser.parseInline(tokens)}</p>\n`;
  }

  override table(token: Tokens.Table): string {
    const cell = (cell: Tokens.TableCell): string => {
      const tag = cell.header ? 'th' : 'td';
      const align = cell.align === null ? '' : ` style="text-align: ${cell.align};"`;
      return `<${tag}${align}>${this.parser.parseInline(cell.tokens)}</${tag}>\n`;
    };
    const row = (cells: Tokens.TableCell[]): string => `<tr>\n${cells.map(cell).join('')}</tr>\n`;
    const body = token.rows.length === 0 ? '' : `<tbody>\n${token.rows.map(row).join('')}</tbody>\n`;
    return `<table>\n<thead>\n${row(token.header)}</thead>\n${body}</table>\n`;
  }

  override strong({ tokens }: Tokens.Strong): string {
    return `<strong>${this.parser.parseInline(tokens)}</strong>`;
  }

  override em({ tokens }: Tokens.Em): string {
    return `<em>${this.parser.parseInline(tokens)}</em>`;
  }

  override codespan({ text }: Tokens.Codespan): string {
    return `<code>${escapeLiteral(text)}</code>`;
  }

  override br(): string {
    return '<br>\n';
  }

  override del({ tokens }: Tokens.Del): string {
    return `<del>${this.parser.parseInline(tokens)}</del>`;
  }

  /** hrefs were sanitized when the link was tokenized (url.ts). */
  override link({ href, title, tokens }: Tokens.Link): string {
    const titleAttribute = title === null || title === undefined || title === '' ? '' : ` title="${escapeAttribute(title)}"`;
    return `<a href="${escapeAttribute(href)}"${titleAttribute}>${this.parser.parseInline(tokens)}</a>`;
  }

  /** Unreachable (`![]()` is not part of the dialect); shown as its source text. */
  override image({ raw }: Tokens.Image): string {
    return escapeText(raw);
  }

  override text(token: Tokens.Text | Tokens.Escape): string {
    if ('tokens' in token && token.tokens !== undefined) return this.parser.parseInline(token.tokens);
    return 'escaped' in token && token.escaped === true ? token.text : escapeText(token.text);
  }
}
