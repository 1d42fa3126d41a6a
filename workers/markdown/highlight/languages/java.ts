/** Java, tokenized as the reference highlighter's lexer for it does. */
import { rule, type LexerDefinition } from '../lexer';
import * as T from '../token-classes';

/** Hands a group back to this lexer, from its root state. */
const THIS = { using: 'this' } as const;

const JAVA_IDENTIFIER = '(?:[^\\W\\d]|\\$)[\\w$]*';

export const JAVA: LexerDefinition = {
  states: {
    root: [
      rule(/[^\S\n]+/, T.Text),
      rule(/(\/\/.*?)(\n)/, [T.CommentSingle, T.Text]),
      rule(/\/\*[\s\S]*?\*\//, T.CommentMultiline),
      rule(
        /(assert|break|case|catch|continue|default|do|else|finally|for|if|goto|instanceof|new|return|switch|this|throw|try|while)\b/,
        T.Keyword,
      ),
      // Return type and modifiers before a method name; a few words at most, so a long line of words costs linear time.
      rule(new RegExp(`((?:${JAVA_IDENTIFIER.replace('[\\w$]*', '[\\w.\\[\\]$<>]*')}\\s+){1,8}?)(${JAVA_IDENTIFIER})(\\s*)(\\()`), [
        THIS,
        T.NameFunction,
        T.Text,
        T.Punctuation,
      ]),
      rule(/@[^\W\d][\w.]*/, T.NameDecorator),
      rule(
        /(abstract|const|enum|extends|final|implements|native|private|protected|public|sealed|static|strictfp|super|synchronized|throws|transient|volatile|yield)\b/,
        T.KeywordDeclaration,
      ),
      rule(/(boolean|byte|char|double|float|int|long|short|void)\b/, T.KeywordType),
      rule(/(package)(\s+)/, [T.KeywordNamespace, T.Text], 'import'),
      rule(/(true|false|null)\b/, T.KeywordConstant),
      rule(/(class|interface|record)\b/, T.KeywordDeclaration, 'class'),
      rule(/(var)(\s+)/, [T.KeywordDeclaration, T.Text], 'var'),
      rule(/(import(?:\s+static)?)(\s+)/, [T.KeywordNamespace, T.Text], 'import'),
      rule(/"""\n/, T.String, 'multiline-string'),
      rule(/"/, T.String, 'string'),
      rule(/'\\.'|'[^\\]'|'\\u[0-9a-fA-F]{4}'/, T.StringChar),
      rule(new RegExp(`(\\.)(${JAVA_IDENTIFIER})`), [T.Punctuation, T.NameAttribute]),
      rule(/^([^\S\n]*)(default)(:)/, [T.Text, T.Keyword, T.Punctuation]),
      rule(new RegExp(`^([^\\S\\n]*)(${JAVA_IDENTIFIER})(:)`), [T.Text, T.NameLabel, T.Punctuation]),
      rule(new RegExp(JAVA_IDENTIFIER), T.Name),
      rule(
        /([0-9][0-9_]*\.([0-9][0-9_]*)?|\.[0-9][0-9_]*)([eE][+-]?[0-9][0-9_]*)?[fFdD]?|[0-9][eE][+-]?[0-9][0-9_]*[fFdD]?|[0-9]([eE][+-]?[0-9][0-9_]*)?[fFdD]/,
        T.NumberFloat,
      ),
      rule(/0[xX][0-9a-fA-F][0-9a-fA-F_]*[lL]?/, T.NumberHex),
      rule(/0[bB][01][01_]*[lL]?/, T.NumberBin),
      rule(/0[0-7_]+[lL]?/, T.NumberOct),
      rule(/0|[1-9][0-9_]*[lL]?/, T.NumberInteger),
      rule(/[~^*!%&[\]<>|+=/?-]/, T.Operator),
      rule(/[{}();:.,]/, T.Punctuation),
      rule(/\n/, T.Text),
    ],
    class: [rule(/\s+/, T.Text), rule(new RegExp(JAVA_IDENTIFIER), T.NameClass, '#pop')],
    var: [rule(new RegExp(JAVA_IDENTIFIER), T.Name, '#pop')],
    import: [rule(/[\w.]+\*?/, T.NameNamespace, '#pop')],
    'multiline-string': [rule(/"""/, T.String, '#pop'), rule(/"/, T.String), rule(/[^\\"]+|\\\\|\\"|\\/, T.String)],
    string: [rule(/[^\\"]+|\\\\|\\"|\\/, T.String), rule(/"/, T.String, '#pop')],
  },
};
