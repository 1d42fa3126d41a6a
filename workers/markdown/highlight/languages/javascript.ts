/** JavaScript, TypeScript and JSON, tokenized as the reference highlighter's lexers for them do. */
import { INPUT_START, fallback, rule, type LexerDefinition, type Rule } from '../lexer';
import * as T from '../token-classes';

const IDENTIFIER = /(?:[$_\p{L}\p{Nl}]|\\u[a-fA-F0-9]{4})(?:[$\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}\u200c\u200d]|\\u[a-fA-F0-9]{4})*/u;

const COMMENTS_AND_WHITESPACE = [
  rule(/\s+/, T.Text),
  rule(/<!--/, T.Comment),
  rule(/\/\/.*?$/, T.CommentSingle),
  rule(/\/\*[\s\S]*?\*\//, T.CommentMultiline),
];

const JAVASCRIPT_ROOT: Rule[] = [
  rule(`${INPUT_START}#! ?/.*?$`, T.CommentHashbang),
  rule(/^(?=\s|\/|<!--)/, T.Text, 'slashstartsregex'),
  ...COMMENTS_AND_WHITESPACE,
  rule(/0[bB][01]+n?/, T.NumberBin),
  rule(/0[oO]?[0-7]+n?/, T.NumberOct),
  rule(/0[xX][0-9a-fA-F]+n?/, T.NumberHex),
  rule(/[0-9]+n/, T.NumberInteger),
  rule(/(\.[0-9]+|[0-9]+\.[0-9]*|[0-9]+)([eE][-+]?[0-9]+)?/, T.NumberFloat),
  rule(/\.\.\.|=>/, T.Punctuation),
  rule(/\+\+|--|~|\?\?=?|\?|:|\\(?=\n)|(<<|>>>?|==?|!=?|(?:\*\*|\|\||&&|[-<>+*%&|^/]))=?/, T.Operator, 'slashstartsregex'),
  rule(/[{([;,]/, T.Punctuation, 'slashstartsregex'),
  rule(/[})\].]/, T.Punctuation),
  rule(/(typeof|instanceof|in|void|delete|new)\b/, T.OperatorWord, 'slashstartsregex'),
  rule(/\b(constructor|from|as)\b/, T.KeywordReserved),
  rule(
    /(for|in|while|do|break|return|continue|switch|case|default|if|else|throw|try|catch|finally|yield|await|async|this|of|static|export|import|debugger|extends|super)\b/,
    T.Keyword,
    'slashstartsregex',
  ),
  rule(/(var|let|const|with|function|class)\b/, T.KeywordDeclaration, 'slashstartsregex'),
  rule(
    /(abstract|boolean|byte|char|double|enum|final|float|goto|implements|int|interface|long|native|package|private|protected|public|short|synchronized|throws|transient|volatile)\b/,
    T.KeywordReserved,
  ),
  rule(/(true|false|null|NaN|Infinity|undefined)\b/, T.KeywordConstant),
  rule(
    /(Array|Boolean|Date|BigInt|Function|Math|ArrayBuffer|Number|Object|RegExp|String|Promise|Proxy|decodeURI|decodeURIComponent|encodeURI|encodeURIComponent|eval|isFinite|isNaN|parseFloat|parseInt|DataView|document|window|globalThis|global|Symbol|Intl|WeakSet|WeakMap|Set|Map|Reflect|JSON|Atomics|Int(?:8|16|32)Array|BigInt64Array|Float32Array|Float64Array|Uint8ClampedArray|Uint(?:8|16|32)Array|BigUint64Array)\b/,
    T.NameBuiltin,
  ),
  rule(/((?:Eval|Internal|Range|Reference|Syntax|Type|URI)?Error)\b/, T.NameException),
  rule(/(super)(\s*)(\([\w,?.$\s]+\s*\))/, [T.Keyword, T.Text], 'slashstartsregex'),
  rule(/([a-zA-Z_?.$][\w?.$]*)(?=\(\) \{)/, T.NameOther, 'slashstartsregex'),
  rule(IDENTIFIER, T.NameOther),
  rule(/"(\\\\|\\[^\\]|[^"\\])*"/, T.StringDouble),
  rule(/'(\\\\|\\[^\\]|[^'\\])*'/, T.StringSingle),
  rule(/`/, T.StringBacktick, 'interp'),
  rule(/#[a-zA-Z_]\w*/, T.Name),
];

function javascriptFamily(root: Rule[]): LexerDefinition {
  return {
    states: {
      root,
      slashstartsregex: [
        ...COMMENTS_AND_WHITESPACE,
        rule(/\/(\\.|[^[/\\\n]|\[(\\.|[^\]\\\n])*])+\/([gimuysd]+\b|\B)/, T.StringRegex, '#pop'),
        rule(/(?=\/)/, T.Text, ['#pop', 'badregex']),
        fallback('#pop'),
      ],
      badregex: [rule(/\n/, T.Text, '#pop')],
      interp: [
        rule(/`/, T.StringBacktick, '#pop'),
        rule(/\\[\s\S]/, T.StringBacktick),
        rule(/\$\{/, T.StringInterpol, 'interp-inside'),
        rule(/\$/, T.StringBacktick),
        rule(/[^`\\$]+/, T.StringBacktick),
      ],
      'interp-inside': [rule(/\}/, T.StringInterpol, '#pop'), ...root],
    },
  };
}

export const JAVASCRIPT = javascriptFamily(JAVASCRIPT_ROOT);

export const TYPESCRIPT = javascriptFamily([
  rule(/(abstract|implements|private|protected|public|readonly)\b/, T.Keyword, 'slashstartsregex'),
  rule(/(enum|interface|override)\b/, T.KeywordDeclaration, 'slashstartsregex'),
  rule(/\b(declare|type)\b/, T.KeywordReserved),
  rule(/\b(string|boolean|number)\b/, T.KeywordType),
  rule(/\b(module)(\s*)([\w?.$]+)(\s*)/, [T.KeywordReserved, T.Text, T.NameOther, T.Text], 'slashstartsregex'),
  rule(/([\w?.$]+)(\s*)(:)(\s*)([\w?.$]+)/, [T.NameOther, T.Text, T.Operator, T.Text, T.KeywordType]),
  rule(new RegExp(`@${IDENTIFIER.source}`, 'u'), T.KeywordDeclaration),
  ...JAVASCRIPT_ROOT,
]);

/** Object keys are tags, other strings double-quoted strings. */
export const JSON_DATA: LexerDefinition = {
  states: {
    root: [
      rule(/\s+/, T.Text),
      rule(/\/\/.*?$/, T.CommentSingle),
      rule(/\/\*[\s\S]*?\*\//, T.CommentMultiline),
      rule(/"(\\.|[^"\\\n])*"(?=\s*:)/, T.NameTag),
      rule(/"(\\.|[^"\\\n])*"/, T.StringDouble),
      rule(/-?(0|[1-9][0-9]*)(\.[0-9]+([eE][-+]?[0-9]+)?|[eE][-+]?[0-9]+)/, T.NumberFloat),
      rule(/-?(0|[1-9][0-9]*)/, T.NumberInteger),
      rule(/(true|false|null)\b/, T.KeywordConstant),
      rule(/[{}[\],:]/, T.Punctuation),
    ],
  },
};
