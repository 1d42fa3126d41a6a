/**
 * Server-side code highlighting (api-notes §g): code blocks in a language the reference
 * highlighter knows carry its token spans, so every client colors them the same way. Languages
 * are looked up by the reference's lexer aliases; any other language stays plain text.
 */
import { highlightToHtml, tokenClassesOf, type LexerDefinition } from './lexer';
import { C, CPP } from './languages/c-family';
import { GO } from './languages/go';
import { JAVA } from './languages/java';
import { RUST } from './languages/rust';
import { DIFF, SQL, YAML } from './languages/data';
import { JAVASCRIPT, JSON_DATA, TYPESCRIPT } from './languages/javascript';
import { CSS, HTML, XML } from './languages/markup';
import { PYTHON, PYTHON_2 } from './languages/python';
import { PHP } from './languages/php';
import { RUBY } from './languages/ruby';
import { BASH, SHELL_SESSION } from './languages/shell';
import { TEX } from './languages/tex';

/** Each lexer with the language names (the reference's aliases) that select it. */
const LEXERS: readonly [LexerDefinition, readonly string[]][] = [
  [PYTHON, ['python', 'py', 'sage', 'python3', 'py3', 'bazel', 'starlark', 'pyi']],
  [PYTHON_2, ['python2', 'py2']],
  [JAVASCRIPT, ['javascript', 'js']],
  [TYPESCRIPT, ['typescript', 'ts']],
  [JSON_DATA, ['json', 'json-object']],
  [BASH, ['bash', 'sh', 'ksh', 'zsh', 'shell', 'openrc']],
  [SHELL_SESSION, ['console', 'shell-session']],
  [SQL, ['sql']],
  [HTML, ['html']],
  [XML, ['xml']],
  [CSS, ['css']],
  [C, ['c']],
  [CPP, ['cpp', 'c++']],
  [JAVA, ['java']],
  [GO, ['go', 'golang']],
  [RUST, ['rust', 'rs']],
  [RUBY, ['ruby', 'rb', 'duby']],
  [PHP, ['php', 'php3', 'php4', 'php5']],
  [YAML, ['yaml', 'yml']],
  [DIFF, ['diff', 'udiff', 'patch']],
  [TEX, ['tex', 'latex']],
];

const LEXERS_BY_ALIAS: ReadonlyMap<string, LexerDefinition> = new Map(
  LEXERS.flatMap(([lexer, aliases]) => aliases.map((alias) => [alias, lexer] as const)),
);

/** Every class a highlighted code block's spans can carry. */
export const HIGHLIGHT_CLASSES: readonly string[] = [...new Set(LEXERS.flatMap(([lexer]) => [...tokenClassesOf(lexer)]))];

/** The spans of `code` (which ends with a newline) in `language`, or undefined if it is not one we highlight. */
export function highlightCode(code: string, language: string): string | undefined {
  const lexer = LEXERS_BY_ALIAS.get(language.toLowerCase());
  return lexer === undefined ? undefined : highlightToHtml(code, lexer);
}
