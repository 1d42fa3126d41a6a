/** C, C++, Java, Go and Rust, tokenized as the reference highlighter's lexers for them do. */
import { fallback, rule, words, type LexerDefinition, type Rule } from '../lexer';
import * as T from '../token-classes';

const THIS = { using: 'this' } as const;

const C_IDENTIFIER = '(?!\\d)(?:[\\w$]|\\\\u[0-9a-fA-F]{4}|\\\\U[0-9a-fA-F]{8})+';
const C_NAMESPACED_IDENTIFIER = '(?!\\d)(?:[\\w$]|\\\\u[0-9a-fA-F]{4}|\\\\U[0-9a-fA-F]{8}|::)+';
const DECIMAL = "\\d(?:'?\\d)*";
const INTEGER_SUFFIX = '(([uU][lL]{0,2})|[lL]{1,2}[uU]?)?';

const C_STANDARD_TYPES = [
  'size_t', 'ssize_t', 'off_t', 'wchar_t', 'ptrdiff_t', 'sig_atomic_t', 'fpos_t', 'clock_t', 'time_t', 'va_list',
  'jmp_buf', 'FILE', 'DIR', 'div_t', 'ldiv_t', 'mbstate_t', 'wctrans_t', 'wint_t', 'wctype_t', '_Bool', '_Complex',
  'int8_t', 'int16_t', 'int32_t', 'int64_t', 'uint8_t', 'uint16_t', 'uint32_t', 'uint64_t', 'int_least8_t',
  'intptr_t', 'uintptr_t', 'intmax_t', 'uintmax_t',
];

function cFamily(extraKeywords: Rule[], extraStatements: Rule[], extraStates: Record<string, Rule[]>): LexerDefinition {
  const whitespace: Rule[] = [
    rule(/^([ \t]*)(#)/, [T.Text, T.CommentPreproc], 'macro'),
    rule(
      new RegExp(`(^[ \\t]*)(?!(?:public|private|protected|default)\\b)(case\\b|${C_IDENTIFIER})(\\s*)(:)(?!:)`),
      [T.Text, T.NameLabel, T.Text, T.Punctuation],
    ),
    rule(/\n/, T.Text),
    rule(/[^\S\n]+/, T.Text),
    rule(/\\\n/, T.Text),
    rule(/\/\/(?:.|(?<=\\)\n)*\n?/, T.CommentSingle),
    rule(/\/(?:\\\n)?[*](?:[^*]|[*](?!(?:\\\n)?\/))*[*](?:\\\n)?\//, T.CommentMultiline),
    rule(/\/(\\\n)?[*][\w\W]*/, T.CommentMultiline),
  ];
  const keywords: Rule[] = [
    ...extraKeywords,
    rule(/(struct|union)(\s+)/, [T.Keyword, T.Text], 'classname'),
    rule(/case\b/, T.Keyword, 'case-value'),
    rule(
      words([
        'asm', 'auto', 'break', 'const', 'continue', 'default', 'do', 'else', 'enum', 'extern', 'for', 'goto', 'if',
        'register', 'restricted', 'return', 'sizeof', 'struct', 'static', 'switch', 'typedef', 'volatile', 'while',
        'union', 'thread_local', 'alignas', 'alignof', 'static_assert', '_Pragma',
      ]),
      T.Keyword,
    ),
    rule(words(['inline', '_inline', '__inline', 'naked', 'restrict', 'thread']), T.KeywordReserved),
  ];
  const types: Rule[] = [
    rule(words(['int8', 'int16', 'int32', 'int64', 'wchar_t'], '__'), T.KeywordReserved),
    rule(words(['bool', 'int', 'long', 'float', 'short', 'double', 'char', 'unsigned', 'signed', 'void', '_BitInt', '__int128']), T.KeywordType),
    rule(words(C_STANDARD_TYPES), T.KeywordType),
  ];
  const statements: Rule[] = [
    ...keywords,
    ...types,
    ...extraStatements,
    rule(/([LuU]|u8)?(")/, [T.StringAffix, T.String], 'string'),
    rule(/([LuU]|u8)?(')(\\.|\\[0-7]{1,3}|\\x[a-fA-F0-9]{1,2}|[^\\'\n])(')/, [T.StringAffix, T.StringChar, T.StringChar, T.StringChar]),
    rule(new RegExp(`(-)?(${DECIMAL}\\.${DECIMAL}|\\.${DECIMAL}|${DECIMAL})[eE][+-]?${DECIMAL}[fFlL]?`), T.NumberFloat),
    rule(new RegExp(`(-)?((${DECIMAL}\\.(${DECIMAL})?|\\.${DECIMAL})[fFlL]?)|(${DECIMAL}[fFlL])`), T.NumberFloat),
    rule(new RegExp(`(-)?0[xX][0-9a-fA-F](?:'?[0-9a-fA-F])*${INTEGER_SUFFIX}`), T.NumberHex),
    rule(new RegExp(`(-)?0[bB][01](?:'?[01])*${INTEGER_SUFFIX}`), T.NumberBin),
    rule(new RegExp(`(-)?0(?:'?[0-7])+${INTEGER_SUFFIX}`), T.NumberOct),
    rule(new RegExp(`(-)?${DECIMAL}${INTEGER_SUFFIX}`), T.NumberInteger),
    rule(/[~!%^&*+=|?:<>/-]/, T.Operator),
    rule(/[()[\],.]/, T.Punctuation),
    rule(/(true|false|NULL)\b/, T.NameBuiltin),
    rule(new RegExp(C_IDENTIFIER), T.Name),
  ];
  // A definition: return type, name, parameters, then `{` (or `;` for a declaration).
  const signature = `(${C_NAMESPACED_IDENTIFIER}(?:[&*\\s])+)(${C_NAMESPACED_IDENTIFIER})(\\s*)(\\([^;"')]*?\\))([^;{/"']*)`;
  return {
    states: {
      root: [
        ...whitespace,
        ...keywords,
        rule(new RegExp(`${signature}(\\{)`), [THIS, T.NameFunction, T.Text, THIS, THIS, T.Punctuation], 'function'),
        rule(new RegExp(`${signature}(;)`), [THIS, T.NameFunction, T.Text, THIS, THIS, T.Punctuation]),
        ...types,
        fallback('statement'),
      ],
      statement: [...whitespace, ...statements, rule(/\}/, T.Punctuation), rule(/[{;]/, T.Punctuation, '#pop')],
      function: [
        ...whitespace,
        ...statements,
        rule(/;/, T.Punctuation),
        rule(/\{/, T.Punctuation, 'function'),
        rule(/\}/, T.Punctuation, '#pop'),
      ],
      string: [
        rule(/"/, T.String, '#pop'),
        rule(/\\([\\abfnrtv"']|x[a-fA-F0-9]{2,4}|u[a-fA-F0-9]{4}|U[a-fA-F0-9]{8}|[0-7]{1,3})/, T.StringEscape),
        rule(/[^\\"\n]+/, T.String),
        rule(/\\\n|\\/, T.String),
      ],
      macro: [
        rule(/([ \t]*)(include)([ \t]*)("[^"\n]+"|<[^>\n]+>)([^\n]*)/, [T.Text, T.CommentPreproc, T.Text, T.CommentPreprocFile, T.CommentSingle]),
        rule(/[^/\n]+/, T.CommentPreproc),
        rule(/\/[*][\s\S]*?[*]\//, T.CommentMultiline),
        rule(/\/\/.*?\n/, T.CommentSingle, '#pop'),
        rule(/\//, T.CommentPreproc),
        rule(/(?<=\\)\n/, T.CommentPreproc),
        rule(/\n/, T.CommentPreproc, '#pop'),
      ],
      classname: [rule(new RegExp(C_IDENTIFIER), T.NameClass, '#pop'), rule(/\s*(?=>)/, T.Text, '#pop'), fallback('#pop')],
      'case-value': [rule(/(?<!:)(:)(?!:)/, T.Punctuation, '#pop'), rule(new RegExp(C_IDENTIFIER), T.NameConstant), ...whitespace, ...statements],
      ...extraStates,
    },
  };
}

export const C = cFamily([], [], {});

export const CPP = cFamily(
  [
    rule(/(class|concept|typename)(\s+)/, [T.Keyword, T.Text], 'classname'),
    rule(
      words([
        'catch', 'const_cast', 'delete', 'dynamic_cast', 'explicit', 'export', 'friend', 'mutable', 'new', 'operator',
        'private', 'protected', 'public', 'reinterpret_cast', 'class', '__restrict', 'static_cast', 'template', 'this',
        'throw', 'throws', 'try', 'typeid', 'using', 'virtual', 'constexpr', 'nullptr', 'concept', 'decltype',
        'noexcept', 'override', 'final', 'constinit', 'consteval', 'co_await', 'co_return', 'co_yield', 'requires',
        'import', 'module', 'typename', 'and', 'and_eq', 'bitand', 'bitor', 'compl', 'not', 'not_eq', 'or', 'or_eq',
        'xor', 'xor_eq',
      ]),
      T.Keyword,
    ),
    rule(/(namespace)(\s+)/, [T.Keyword, T.Text], 'namespace'),
    rule(/(enum)(\s+)/, [T.Keyword, T.Text], 'enumname'),
  ],
  [
    rule(/(R)(")([^\\()\s]{0,16})(\()((?:.|\n)*?)(\)\3)(")/, [T.StringAffix, T.String, T.StringDelimiter, T.StringDelimiter, T.String, T.StringDelimiter, T.String]),
    rule(/0[xX][0-9a-fA-F](?:'?[0-9a-fA-F])*[pP][+-]?\d(?:'?\d)*[lL]?/, T.NumberFloat),
    rule(/(char8_t|char16_t|char32_t|wchar_t|auto)\b/, T.KeywordType),
  ],
  {
    namespace: [
      rule(/[;{]/, T.Punctuation, '#pop'),
      rule(/inline\b/, T.KeywordReserved),
      rule(new RegExp(C_NAMESPACED_IDENTIFIER), T.NameNamespace),
      rule(/\s+/, T.Text),
    ],
    enumname: [rule(/(class|struct)\b/, T.Keyword), rule(new RegExp(C_IDENTIFIER), T.NameClass, '#pop'), rule(/\s+/, T.Text), fallback('#pop')],
  },
);

const JAVA_IDENTIFIER = '(?:[^\\W\\d]|\\$)[\\w$]*';

export const JAVA: LexerDefinition = {
  states: {
    root: [
      rule(/[^\S\n]+/, T.Text),
      rule(/(\/\/.*?)(\n)/, [T.CommentSingle, T.Text]),
      rule(/\/\*[\s\S]*?\*\//, T.CommentMultiline),
      rule(/(assert|break|case|catch|continue|default|do|else|finally|for|if|goto|instanceof|new|return|switch|this|throw|try|while)\b/, T.Keyword),
      // Return type and modifiers before a method name; a few words at most, so a long line of words costs linear time.
      rule(new RegExp(`((?:${JAVA_IDENTIFIER.replace('[\\w$]*', '[\\w.\\[\\]$<>]*')}\\s+){1,8}?)(${JAVA_IDENTIFIER})(\\s*)(\\()`), [THIS, T.NameFunction, T.Text, T.Punctuation]),
      rule(/@[^\W\d][\w.]*/, T.NameDecorator),
      rule(/(abstract|const|enum|extends|final|implements|native|private|protected|public|sealed|static|strictfp|super|synchronized|throws|transient|volatile|yield)\b/, T.KeywordDeclaration),
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
      rule(/([0-9][0-9_]*\.([0-9][0-9_]*)?|\.[0-9][0-9_]*)([eE][+-]?[0-9][0-9_]*)?[fFdD]?|[0-9][eE][+-]?[0-9][0-9_]*[fFdD]?|[0-9]([eE][+-]?[0-9][0-9_]*)?[fFdD]/, T.NumberFloat),
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

const GO_TYPES = [
  'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'int', 'int8', 'int16', 'int32', 'int64', 'float', 'float32',
  'float64', 'complex64', 'complex128', 'byte', 'rune', 'string', 'bool', 'error', 'uintptr', 'any', 'comparable',
  'print', 'println', 'panic', 'recover', 'close', 'complex', 'real', 'imag', 'len', 'cap', 'append', 'copy',
  'delete', 'new', 'make', 'min', 'max', 'clear',
];

export const GO: LexerDefinition = {
  states: {
    root: [
      rule(/\s+/, T.Text),
      rule(/\/\/.*?$/, T.CommentSingle),
      rule(/\/(\\\n)?[*][\s\S]*?[*](\\\n)?\//, T.CommentMultiline),
      rule(/(import|package)\b/, T.KeywordNamespace),
      rule(/(var|func|struct|map|chan|type|interface|const)\b/, T.KeywordDeclaration),
      rule(words(['break', 'default', 'select', 'case', 'defer', 'go', 'else', 'goto', 'switch', 'fallthrough', 'if', 'range', 'continue', 'for', 'return']), T.Keyword),
      rule(/(true|false|iota|nil)\b/, T.KeywordConstant),
      rule(new RegExp(`(${words(GO_TYPES)})(\\()`), [T.NameBuiltin, T.Punctuation]),
      rule(words(GO_TYPES.slice(0, GO_TYPES.indexOf('print'))), T.KeywordType),
      rule(/\d+i/, T.Number),
      rule(/\d+\.\d*([Ee][-+]\d+)?i/, T.Number),
      rule(/\.\d+([Ee][-+]\d+)?i/, T.Number),
      rule(/\d+[Ee][-+]\d+i/, T.Number),
      rule(/\d+(\.\d+[eE][+-]?\d+|\.\d*|[eE][+-]?\d+)/, T.NumberFloat),
      rule(/\.\d+([eE][+-]?\d+)?/, T.NumberFloat),
      rule(/0[0-7]+/, T.NumberOct),
      rule(/0[xX][0-9a-fA-F_]+/, T.NumberHex),
      rule(/0[bB][01_]+/, T.NumberBin),
      rule(/(0|[1-9][0-9_]*)/, T.NumberInteger),
      rule(/'(\\['"\\abfnrtv]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|[^\\])'/, T.StringChar),
      rule(/`[^`]*`/, T.String),
      rule(/"(\\\\|\\[^\\]|[^"\\])*"/, T.String),
      rule(/(<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|\/=|%=|&=|\|=|&&|\|\||<-|\+\+|--|==|!=|:=|\.\.\.|[+\-*/%&]|~|\|)/, T.Operator),
      rule(/[|^<>=!()[\]{}.,;:]/, T.Punctuation),
      rule(/[^\W\d]\w*/, T.NameOther),
    ],
  },
};

const RUST_BUILTIN_TYPES = ['u8', 'u16', 'u32', 'u64', 'u128', 'i8', 'i16', 'i32', 'i64', 'i128', 'usize', 'isize', 'f32', 'f64', 'char', 'str', 'bool'];
const RUST_BUILTINS = [
  'Copy', 'Send', 'Sized', 'Sync', 'Unpin', 'Drop', 'Fn', 'FnMut', 'FnOnce', 'drop', 'Box', 'ToOwned', 'Clone',
  'PartialEq', 'PartialOrd', 'Eq', 'Ord', 'AsRef', 'AsMut', 'Into', 'From', 'Default', 'Iterator', 'Extend',
  'IntoIterator', 'DoubleEndedIterator', 'ExactSizeIterator', 'Option', 'Some', 'None', 'Result', 'Ok', 'Err',
  'String', 'ToString', 'Vec',
];

export const RUST: LexerDefinition = {
  states: {
    root: [
      rule(/#![^[\r\n].*$/, T.CommentPreproc),
      fallback('base'),
    ],
    base: [
      rule(/\n/, T.Text),
      rule(/\s+/, T.Text),
      rule(/\/\/!.*?\n/, T.StringDoc),
      rule(/\/\/\/(\n|[^/].*?\n)/, T.StringDoc),
      rule(/\/\/(.*?)\n/, T.CommentSingle),
      rule(/\/\*\*(\n|[^/*])/, T.StringDoc, 'doccomment'),
      rule(/\/\*!/, T.StringDoc, 'doccomment'),
      rule(/\/\*/, T.CommentMultiline, 'comment'),
      rule(/\$([a-zA-Z_]\w*|\(,?|\),?|,?)/, T.CommentPreproc),
      rule(words(['as', 'async', 'await', 'box', 'const', 'crate', 'dyn', 'else', 'extern', 'for', 'if', 'impl', 'in', 'loop', 'match', 'move', 'mut', 'pub', 'ref', 'return', 'static', 'super', 'trait', 'unsafe', 'use', 'where', 'while']), T.Keyword),
      rule(words(['abstract', 'become', 'do', 'final', 'macro', 'override', 'priv', 'typeof', 'try', 'unsized', 'virtual', 'yield']), T.KeywordReserved),
      rule(/(true|false)\b/, T.KeywordConstant),
      rule(/self\b/, T.NameBuiltinPseudo),
      rule(/mod\b/, T.Keyword, 'modname'),
      rule(/let\b/, T.KeywordDeclaration),
      rule(/fn\b/, T.Keyword, 'funcname'),
      rule(/(struct|enum|type|union)\b/, T.Keyword, 'typename'),
      rule(/(default)(\s+)(type|fn)\b/, [T.Keyword, T.Text, T.Keyword]),
      rule(words(RUST_BUILTIN_TYPES), T.KeywordType),
      rule(/[sS]elf\b/, T.NameBuiltinPseudo),
      rule(words(RUST_BUILTINS), T.NameBuiltin),
      rule(/::\b/, T.Punctuation),
      rule(/(?::|->)/, T.Punctuation, 'typename'),
      rule(/(break|continue)(\b\s*)('[A-Za-z_]\w*)?/, [T.Keyword, T.Text, T.NameLabel]),
      rule(/'(\\['"\\nrt]|\\x[0-7][0-9a-fA-F]|\\0|\\u\{[0-9a-fA-F]{1,6}\}|.)'/, T.StringChar),
      rule(/b'(\\['"\\nrt]|\\x[0-9a-fA-F]{2}|\\0|\\u\{[0-9a-fA-F]{1,6}\}|.)'/, T.StringChar),
      rule(/0b[01_]+/, T.NumberBin, 'number-literal'),
      rule(/0o[0-7_]+/, T.NumberOct, 'number-literal'),
      rule(/0[xX][0-9a-fA-F_]+/, T.NumberHex, 'number-literal'),
      rule(/[0-9][0-9_]*(\.[0-9_]+[eE][+-]?[0-9_]+|\.[0-9_]*(?!\.)|[eE][+-]?[0-9_]+)/, T.NumberFloat, 'number-literal'),
      rule(/[0-9][0-9_]*/, T.NumberInteger, 'number-literal'),
      rule(/b"/, T.String, 'bytestring'),
      rule(/"/, T.String, 'string'),
      rule(/(b?r)(#*)(")/, [T.StringAffix, T.String, T.String], 'raw-string'),
      rule(/'/, T.Operator, 'lifetime'),
      rule(/\.\.=?/, T.Operator),
      rule(/[{}()[\],.;]/, T.Punctuation),
      rule(/[+\-*/%&|<>^!~@=:?]/, T.Operator),
      rule(/[a-zA-Z_]\w*!/, T.NameFunctionMagic),
      rule(/r#[a-zA-Z_]\w*/, T.Name),
      rule(/[a-zA-Z_]\w*/, T.Name),
      rule(/(#!?)(\[)/, [T.CommentPreproc, T.Punctuation], 'attribute['),
    ],
    comment: [rule(/[^*/]+/, T.CommentMultiline), rule(/\/\*/, T.CommentMultiline, 'comment'), rule(/\*\//, T.CommentMultiline, '#pop'), rule(/[*/]/, T.CommentMultiline)],
    doccomment: [rule(/[^*/]+/, T.StringDoc), rule(/\/\*/, T.StringDoc, 'doccomment'), rule(/\*\//, T.StringDoc, '#pop'), rule(/[*/]/, T.StringDoc)],
    modname: [rule(/\s+/, T.Text), rule(/[a-zA-Z_]\w*/, T.NameNamespace, '#pop'), fallback('#pop')],
    funcname: [rule(/\s+/, T.Text), rule(/[a-zA-Z_]\w*/, T.NameFunction, '#pop'), fallback('#pop')],
    typename: [
      rule(/\s+/, T.Text),
      rule(/&/, T.KeywordPseudo),
      rule(/'/, T.Operator, 'lifetime'),
      rule(words(RUST_BUILTINS), T.NameBuiltin),
      rule(words(RUST_BUILTIN_TYPES), T.KeywordType),
      rule(/[a-zA-Z_]\w*/, T.NameClass, '#pop'),
      fallback('#pop'),
    ],
    lifetime: [rule(/[a-zA-Z_]+\w*/, T.NameAttribute), fallback('#pop')],
    'number-literal': [rule(/[ui](8|16|32|64|size)/, T.Keyword, '#pop'), rule(/f(32|64)/, T.Keyword, '#pop'), fallback('#pop')],
    string: [
      rule(/"/, T.String, '#pop'),
      rule(/\\['"\\nrt]|\\x[0-7][0-9a-fA-F]|\\0|\\u\{[0-9a-fA-F]{1,6}\}/, T.StringEscape),
      rule(/[^\\"]+/, T.String),
      rule(/\\/, T.String),
    ],
    bytestring: [
      rule(/\\x[89a-fA-F][0-9a-fA-F]/, T.StringEscape),
      rule(/"/, T.String, '#pop'),
      rule(/\\['"\\nrt]|\\x[0-7][0-9a-fA-F]|\\0|\\u\{[0-9a-fA-F]{1,6}\}/, T.StringEscape),
      rule(/[^\\"]+/, T.String),
      rule(/\\/, T.String),
    ],
    'raw-string': [rule(/"#*/, T.String, '#pop'), rule(/[^"]+|"/, T.String)],
    'attribute[': [rule(/\[/, T.CommentPreproc, 'attribute['), rule(/\]/, T.CommentPreproc, '#pop'), rule(/[^"\]\[]+/, T.CommentPreproc), rule(/"/, T.String, 'string')],
  },
};
