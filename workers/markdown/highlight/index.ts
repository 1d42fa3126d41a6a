/**
 * Server-side code highlighting (api-notes §g): code blocks in a language the reference
 * highlighter knows carry its token spans, so every client colors them the same way. Languages
 * are looked up by the reference's lexer aliases; any other language stays plain text.
 */
import { highlightToHtml, tokenClassesOf, type LexerDefinition } from './lexer';
import { PYTHON, PYTHON_2 } from './languages/python';
import { TEX } from './languages/tex';

const LEXERS: readonly [LexerDefinition, readonly string[]][] = [
  [PYTHON, ['python', 'py', 'sage', 'python3', 'py3', 'bazel', 'starlark', 'pyi']],
  [PYTHON_2, ['python2', 'py2']],
  [TEX, ['tex', 'latex']],
];

const LEXERS_BY_ALIAS: ReadonlyMap<string, LexerDefinition> = new Map(
  LEXERS.flatMap(([lexer, aliases]) => aliases.map((alias) => [alias, lexer] as const)),
);

/** Every class a highlighted code block's spans can carry. */
export const HIGHLIGHT_CLASSES: readonly string[] = [
  ...new Set(LEXERS.flatMap(([lexer]) => [...tokenClassesOf(lexer)])),
];

/** The spans of `code` (which ends with a newline) in `language`, or undefined if it is not one we highlight. */
export function highlightCode(code: string, language: string): string | undefined {
  const lexer = LEXERS_BY_ALIAS.get(language.toLowerCase());
  return lexer === undefined ? undefined : highlightToHtml(code, lexer);
}
