/** Shell scripts and shell sessions, tokenized as the reference highlighter's Bash lexers do. */
import { INPUT_START, rule, type LexerDefinition, type Rule } from '../lexer';
import * as T from '../token-classes';

const BUILTIN_COMMANDS =
  /\b(alias|bg|bind|builtin|caller|cd|command|compgen|complete|declare|dirs|disown|echo|enable|eval|exec|exit|export|false|fc|fg|getopts|hash|help|history|jobs|kill|let|local|logout|popd|printf|pushd|pwd|read|readonly|set|shift|shopt|source|suspend|test|time|times|trap|true|type|typeset|ulimit|umask|unalias|unset|wait)(?=[\s)`])/;

const INTERPOLATION: Rule[] = [
  rule(/\$\(\(/, T.Keyword, 'math'),
  rule(/\$\(/, T.Keyword, 'paren'),
  rule(/\$\{#?/, T.StringInterpol, 'curly'),
  rule(/\$[a-zA-Z_]\w*/, T.NameVariable),
  rule(/\$(?:\d+|[#$?!_*@-])/, T.NameVariable),
  rule(/\$/, T.Text),
];

const BASIC: Rule[] = [
  rule(/\b(if|fi|else|while|in|do|done|for|then|return|function|case|select|break|continue|until|esac|elif)(\s*)\b/, [T.Keyword, T.Text]),
  rule(BUILTIN_COMMANDS, T.NameBuiltin),
  rule(`${INPUT_START}#!.+\\n`, T.CommentHashbang),
  rule(/#.*\n/, T.CommentSingle),
  rule(/\\[\s\S]/, T.StringEscape),
  rule(/(\b\w+)(\s*)(\+?=)/, [T.NameVariable, T.Text, T.Operator]),
  rule(/[[\]{}()=]/, T.Operator),
  rule(/<<</, T.Operator),
  rule(/&&|\|\|/, T.Operator),
];

const DATA: Rule[] = [
  rule(/\$?"(\\.|[^"\\$])*"/s, T.StringDouble),
  rule(/"/, T.StringDouble, 'string'),
  rule(/\$'(\\\\|\\[0-7]+|\\.|[^'\\])*'/s, T.StringSingle),
  rule(/'[^']*'/, T.StringSingle),
  rule(/;/, T.Punctuation),
  rule(/&/, T.Punctuation),
  rule(/\|/, T.Punctuation),
  rule(/\s+/, T.Text),
  rule(/\d+\b/, T.Number),
  rule(/[^=\s[\]{}()$"'`\\<&|;]+/, T.Text),
  rule(/</, T.Text),
];

const ROOT: Rule[] = [...BASIC, rule(/`/, T.StringBacktick, 'backticks'), ...DATA, ...INTERPOLATION];

export const BASH: LexerDefinition = {
  states: {
    root: ROOT,
    string: [rule(/"/, T.StringDouble, '#pop'), rule(/(\\\\|\\[0-7]+|\\.|[^"\\$])+/s, T.StringDouble), ...INTERPOLATION],
    curly: [
      rule(/\}/, T.StringInterpol, '#pop'),
      rule(/:-/, T.Keyword),
      rule(/\w+/, T.NameVariable),
      rule(/[^}:"'`$\\]+/, T.Punctuation),
      rule(/:/, T.Punctuation),
      ...ROOT,
    ],
    paren: [rule(/\)/, T.Keyword, '#pop'), ...ROOT],
    math: [
      rule(/\)\)/, T.Keyword, '#pop'),
      rule(/\*\*|\|\||<<|>>|[-+*/%^|&<>]/, T.Operator),
      rule(/\d+#[\da-zA-Z]+/, T.Number),
      rule(/\d+#(?! )/, T.Number),
      rule(/0[xX][\da-fA-F]+/, T.Number),
      rule(/\d+/, T.Number),
      rule(/[a-zA-Z_]\w*/, T.NameVariable),
      ...ROOT,
    ],
    backticks: [rule(/`/, T.StringBacktick, '#pop'), ...ROOT],
  },
};

/**
 * A terminal session: a line starting with a prompt (`$ `, `# `, `> ` or `user@host:~$ `) is a
 * command, highlighted as a script; any other line is the command's output.
 */
export const SHELL_SESSION: LexerDefinition = {
  states: {
    root: [
      rule(/^(?:\[[^\]\n]+@[^\]\n]+\][ \t]?|[\w.-]+@[\w.-]+:[^\n$#%>]*)?[$#%>][ \t]/, T.GenericPrompt, 'command'),
      rule(/.*\n?/, T.GenericOutput),
    ],
    command: [rule(/.*\n?/, { using: BASH }, '#pop')],
  },
};
