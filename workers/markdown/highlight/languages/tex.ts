/** TeX and LaTeX, tokenized as the reference highlighter's TeX lexer does. */
import { fallback, rule, type LexerDefinition } from '../lexer';
import * as T from '../token-classes';

const GENERAL = [rule(/%.*?\n/, T.Comment), rule(/[{}&_^]/, T.NameBuiltin)];

const MATH = [
  rule(/\\([a-zA-Z]+|\S?)/, T.NameVariable),
  ...GENERAL,
  rule(/[0-9]+/, T.Number),
  rule(/[-=!+*/()[\]]/, T.Operator),
  rule(/[^=!+*/()[\]\\$%&_^{}0-9-]+/, T.NameBuiltin),
];

export const TEX: LexerDefinition = {
  states: {
    root: [
      rule(/\\\[/, T.StringBacktick, 'displaymath'),
      rule(/\\\(/, T.String, 'inlinemath'),
      rule(/\$\$/, T.StringBacktick, 'displaymath'),
      rule(/\$/, T.String, 'inlinemath'),
      rule(/\\([a-zA-Z@_:]+|\S?)/, T.Keyword, 'command'),
      rule(/\\$/, T.Keyword),
      ...GENERAL,
      rule(/[^\\$%&_^{}]+/, T.Text),
    ],
    inlinemath: [rule(/\\\)/, T.String, '#pop'), rule(/\$/, T.String, '#pop'), ...MATH],
    displaymath: [rule(/\\\]/, T.String, '#pop'), rule(/\$\$/, T.String, '#pop'), rule(/\$/, T.NameBuiltin), ...MATH],
    command: [rule(/\[.*?\]/, T.NameAttribute), rule(/\*/, T.Keyword), fallback('#pop')],
  },
};
