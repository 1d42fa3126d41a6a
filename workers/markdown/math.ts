/**
 * TeX math (api-notes §g): inline `$$...$$` and ```` ```math ```` blocks, rendered with KaTeX.
 *
 * KaTeX is an optional dependency: the fixture's math cases match `katex` 0.16.25-0.16.31
 * byte for byte, and until the package is installed every formula renders as the dialect's
 * `tex-error` fallback (the escaped source), which is what invalid TeX produces anyway.
 */
import { escapeLiteral, escapeTexSource } from './escape';

interface KatexOptions {
  displayMode: boolean;
  throwOnError: boolean;
  /** Never honour \href, \includegraphics and other commands that need trust. */
  trust: boolean;
  /** Unicode in math mode is fine for us; "ignore" keeps KaTeX from writing warnings. */
  strict: 'ignore';
}

interface Katex {
  renderToString(tex: string, options: KatexOptions): string;
}

function loadKatex(): Katex | null {
  try {
    // A plain require keeps the module optional: it is resolved at run time, if at all.
    const candidate: unknown = require('katex');
    if (typeof candidate === 'object' && candidate !== null && 'renderToString' in candidate) {
      return candidate as Katex;
    }
  } catch {
    // not installed
  }
  return null;
}

// Loaded with the first formula, not with every shard and render thread: most never see one.
let katex: Katex | null | undefined;

function katexOnce(): Katex | null {
  if (katex === undefined) katex = loadKatex();
  return katex;
}

export function katexAvailable(): boolean {
  return katexOnce() !== null;
}

function renderTex(tex: string, displayMode: boolean): string | null {
  const katex = katexOnce();
  if (katex === null) return null;
  try {
    return katex.renderToString(tex, { displayMode, throwOnError: true, trust: false, strict: 'ignore' });
  } catch {
    return null;
  }
}

/** `$$tex$$` in running text. */
export function renderInlineTex(tex: string): string {
  return renderTex(tex, false) ?? `<span class="tex-error">${escapeLiteral(`$$${tex}$$`)}</span>`;
}

/** A ```` ```math ```` block: each blank-line-separated formula becomes its own paragraph. */
export function renderMathBlock(text: string): string {
  return text
    .split('\n\n')
    .map((formula) => {
      const html = renderTex(formula, true) ?? `<span class="tex-error">${escapeTexSource(formula)}</span>`;
      return `<p>${html}</p>\n`;
    })
    .join('');
}

/**
 * Inline math at the start of `src`: `$$`, a first character that is not a newline, `_` or `$`,
 * then anything but `$` or a newline (`\$` allowed), and a closing `$$` not followed by `$`.
 * The caller checks that the `$$` is not preceded by a word character or a `$`.
 */
export const INLINE_TEX = /^\$\$([^\n_$](?:\\\$|[^$\n])*)\$\$(?!\$)/;

const WORD = /[\p{L}\p{N}_]/u;

export function mayOpenInlineTexAfter(previous: string): boolean {
  return previous !== '$' && !WORD.test(previous);
}

export function mayCloseInlineTexBefore(next: string): boolean {
  return next === '' || !WORD.test(next);
}
