/** Python 3 and 2, tokenized as the reference highlighter's Python lexers do. */
import { INPUT_START, fallback, rule, words, type LexerDefinition, type Rule } from '../lexer';
import * as T from '../token-classes';

const IDENTIFIER = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/u;

const BUILTINS = [
  '__import__', 'abs', 'aiter', 'all', 'any', 'bin', 'bool', 'bytearray', 'breakpoint', 'bytes', 'callable', 'chr',
  'classmethod', 'compile', 'complex', 'delattr', 'dict', 'dir', 'divmod', 'enumerate', 'eval', 'filter', 'float',
  'format', 'frozenset', 'getattr', 'globals', 'hasattr', 'hash', 'hex', 'id', 'input', 'int', 'isinstance',
  'issubclass', 'iter', 'len', 'list', 'locals', 'map', 'max', 'memoryview', 'min', 'next', 'object', 'oct', 'open',
  'ord', 'pow', 'print', 'property', 'range', 'repr', 'reversed', 'round', 'set', 'setattr', 'slice', 'sorted',
  'staticmethod', 'str', 'sum', 'super', 'tuple', 'type', 'vars', 'zip',
];

const EXCEPTIONS = [
  'ArithmeticError', 'AssertionError', 'AttributeError', 'BaseException', 'BufferError', 'BytesWarning',
  'DeprecationWarning', 'EOFError', 'EnvironmentError', 'Exception', 'FloatingPointError', 'FutureWarning',
  'GeneratorExit', 'IOError', 'ImportError', 'ImportWarning', 'IndentationError', 'IndexError', 'KeyError',
  'KeyboardInterrupt', 'LookupError', 'MemoryError', 'NameError', 'NotImplementedError', 'OSError', 'OverflowError',
  'PendingDeprecationWarning', 'ReferenceError', 'ResourceWarning', 'RuntimeError', 'RuntimeWarning', 'StopIteration',
  'SyntaxError', 'SyntaxWarning', 'SystemError', 'SystemExit', 'TabError', 'TypeError', 'UnboundLocalError',
  'UnicodeDecodeError', 'UnicodeEncodeError', 'UnicodeError', 'UnicodeTranslateError', 'UnicodeWarning',
  'UserWarning', 'ValueError', 'Warning', 'ZeroDivisionError', 'BlockingIOError', 'ChildProcessError',
  'ConnectionError', 'BrokenPipeError', 'ConnectionAbortedError', 'ConnectionRefusedError', 'ConnectionResetError',
  'FileExistsError', 'FileNotFoundError', 'InterruptedError', 'IsADirectoryError', 'NotADirectoryError',
  'PermissionError', 'ProcessLookupError', 'TimeoutError', 'StopAsyncIteration', 'ModuleNotFoundError',
  'RecursionError',
];

const MAGIC_FUNCTIONS = [
  '__abs__', '__add__', '__aenter__', '__aexit__', '__aiter__', '__and__', '__anext__', '__await__', '__bool__',
  '__bytes__', '__call__', '__complex__', '__contains__', '__del__', '__delattr__', '__delete__', '__delitem__',
  '__dir__', '__divmod__', '__enter__', '__eq__', '__exit__', '__float__', '__floordiv__', '__format__', '__ge__',
  '__get__', '__getattr__', '__getattribute__', '__getitem__', '__gt__', '__hash__', '__iadd__', '__index__',
  '__init__', '__instancecheck__', '__int__', '__invert__', '__iter__', '__le__', '__len__', '__lshift__', '__lt__',
  '__missing__', '__mod__', '__mul__', '__ne__', '__neg__', '__new__', '__next__', '__or__', '__pos__', '__pow__',
  '__repr__', '__reversed__', '__round__', '__rshift__', '__set__', '__setattr__', '__setitem__', '__str__',
  '__sub__', '__subclasscheck__', '__truediv__', '__xor__',
];

const MAGIC_VARIABLES = [
  '__annotations__', '__bases__', '__class__', '__closure__', '__code__', '__defaults__', '__dict__', '__doc__',
  '__file__', '__func__', '__globals__', '__module__', '__mro__', '__name__', '__qualname__', '__self__',
  '__slots__', '__weakref__',
];

const KEYWORDS = [
  'assert', 'async', 'await', 'break', 'continue', 'del', 'elif', 'else', 'except', 'finally', 'for', 'global',
  'if', 'lambda', 'pass', 'raise', 'nonlocal', 'return', 'try', 'while', 'yield', 'yield from', 'as', 'with',
];

/** `%s` and `{name!r:>10}` inside strings. */
const INTERPOLATION = [
  rule(/%(\(\w+\))?[-#0 +]*([0-9]+|[*])?(\.([0-9]+|[*]))?[hlL]?[E-GXc-giorsaux%]/, T.StringInterpol),
  rule(/\{((\w+)((\.\w+)|(\[[^\]\n]+\]))*)?(![sra])?(:(.?[<>=^])?[-+ ]?#?0?(\d+)?,?(\.\d+)?[E-GXb-gnosx%]?)?\}/, T.StringInterpol),
];

const ESCAPE = rule(/\\([\\abfnrtv"'\n]|N\{[^}\n]*\}|u[a-fA-F0-9]{4}|U[a-fA-F0-9]{8}|x[a-fA-F0-9]{2}|[0-7]{1,3})/, T.StringEscape);

/** The body of a string closed by `quote`; `interpolates` for all but raw and byte strings' `{}`. */
function stringState(tokenClass: string, quote: string, escapes: boolean): Rule[] {
  const closing = quote.length === 3 ? rule(quote, tokenClass, '#pop') : rule(`${quote}|\\n`, tokenClass, '#pop');
  return [
    ...(escapes ? [ESCAPE] : [rule(/\\[\s\S]/, tokenClass)]),
    closing,
    ...INTERPOLATION,
    rule(/[^\\'"%{\n]+/, tokenClass),
    rule(/[\s\S]/, tokenClass),
  ];
}

/** f-strings: `{expression}` is Python again. */
function formatStringState(tokenClass: string, quote: string): Rule[] {
  const closing = quote.length === 3 ? rule(quote, tokenClass, '#pop') : rule(`${quote}|\\n`, tokenClass, '#pop');
  return [
    ESCAPE,
    closing,
    rule(/\{\{|\}\}/, tokenClass),
    rule(/\{/, T.StringInterpol, 'fstring-expression'),
    rule(/\}/, T.StringInterpol),
    rule(/[^\\'"{}\n]+/, tokenClass),
    rule(/[\s\S]/, tokenClass),
  ];
}

/** Each quote, its string class, and the suffix of its states' names. */
const STRING_KINDS = [
  ['"""', T.StringDouble, 'tdq'],
  ["'''", T.StringSingle, 'tsq'],
  ['"', T.StringDouble, 'dq'],
  ["'", T.StringSingle, 'sq'],
] as const;

function pythonLexer(printIsKeyword: boolean): LexerDefinition {
  const strings: Rule[] = [];
  for (const [quote, tokenClass, name] of STRING_KINDS) {
    strings.push(
      rule(new RegExp(`([rR][fF]|[fF][rR])(${quote})`), [T.StringAffix, tokenClass], `raw-fstring-${name}`),
      rule(new RegExp(`([fF])(${quote})`), [T.StringAffix, tokenClass], `fstring-${name}`),
      rule(new RegExp(`([rR][bB]|[bB][rR]|[rR])(${quote})`), [T.StringAffix, tokenClass], `raw-${name}`),
      rule(new RegExp(`([uUbB]?)(${quote})`), [T.StringAffix, tokenClass], `string-${name}`),
    );
  }
  const expression: Rule[] = [
    ...strings,
    rule(/[^\S\n]+/, T.Text),
    rule(/(\d(?:_?\d)*\.(?:\d(?:_?\d)*)?|(?:\d(?:_?\d)*)?\.\d(?:_?\d)*)([eE][+-]?\d(?:_?\d)*)?j?/, T.NumberFloat),
    rule(/\d(?:_?\d)*[eE][+-]?\d(?:_?\d)*j?/, T.NumberFloat),
    rule(/0[oO](?:_?[0-7])+/, T.NumberOct),
    rule(/0[bB](?:_?[01])+/, T.NumberBin),
    rule(/0[xX](?:_?[a-fA-F0-9])+/, T.NumberHex),
    rule(printIsKeyword ? /\d(?:_?\d)*[lL]?/ : /\d(?:_?\d)*/, T.NumberInteger),
    rule(/!=|==|<<|>>|:=|[-~+/*%=<>&^|.]/, T.Operator),
    rule(/[\]{}:(),;[]/, T.Punctuation),
    rule(words(['in', 'is', 'and', 'or', 'not']), T.OperatorWord),
    rule(words([...KEYWORDS, ...(printIsKeyword ? ['print', 'exec'] : [])]), T.Keyword),
    rule(words(['True', 'False', 'None']), T.KeywordConstant),
    rule(words(BUILTINS.filter((name) => !printIsKeyword || name !== 'print'), '(?<!\\.)'), T.NameBuiltin),
    rule(/(?<!\.)(?:self|Ellipsis|NotImplemented|cls)\b/, T.NameBuiltinPseudo),
    rule(words(EXCEPTIONS, '(?<!\\.)'), T.NameException),
    rule(words(MAGIC_FUNCTIONS), T.NameFunctionMagic),
    rule(words(MAGIC_VARIABLES), T.NameVariableMagic),
    rule(new RegExp(`@${IDENTIFIER.source}(?:\\.${IDENTIFIER.source})*`, 'u'), T.NameDecorator),
    rule(/@/, T.Operator),
    rule(IDENTIFIER, T.Name),
  ];
  const states: Record<string, Rule[]> = {
    root: [
      rule(/\n/, T.Text),
      rule(/^([^\S\n]*)([rRuUbB]{0,2})(""")/, [T.Text, T.StringAffix, T.StringDoc], 'docstring-dq'),
      rule(/^([^\S\n]*)([rRuUbB]{0,2})(''')/, [T.Text, T.StringAffix, T.StringDoc], 'docstring-sq'),
      rule(`${INPUT_START}#!.+$`, T.CommentHashbang),
      rule(/#.*$/, T.CommentSingle),
      rule(/\\\n|\\/, T.Text),
      rule(/(def)((?:\s|\\\s)+)/, [T.Keyword, T.Text], 'funcname'),
      rule(/(class)((?:\s|\\\s)+)/, [T.Keyword, T.Text], 'classname'),
      rule(/(from)((?:\s|\\\s)+)/, [T.KeywordNamespace, T.Text], 'fromimport'),
      rule(/(import)((?:\s|\\\s)+)/, [T.KeywordNamespace, T.Text], 'import'),
      ...expression,
    ],
    'docstring-dq': [rule(/"""/, T.StringDoc, '#pop'), rule(/[^"]+|"/, T.StringDoc)],
    'docstring-sq': [rule(/'''/, T.StringDoc, '#pop'), rule(/[^']+|'/, T.StringDoc)],
    'fstring-expression': [
      rule(/(=\s*)?(![sraf])?\}/, T.StringInterpol, '#pop'),
      rule(/(=\s*)?(![sraf])?:/, T.StringInterpol, '#pop'),
      rule(/\s+/, T.Text),
      ...expression,
    ],
    funcname: [rule(words(MAGIC_FUNCTIONS), T.NameFunctionMagic), rule(IDENTIFIER, T.NameFunction, '#pop'), fallback('#pop')],
    classname: [rule(IDENTIFIER, T.NameClass, '#pop'), fallback('#pop')],
    import: [
      rule(/(\s+)(as)(\s+)/, [T.Text, T.Keyword, T.Text]),
      rule(/\./, T.NameNamespace),
      rule(IDENTIFIER, T.NameNamespace),
      rule(/(\s*)(,)(\s*)/, [T.Text, T.Operator, T.Text]),
      fallback('#pop'),
    ],
    fromimport: [
      rule(/(\s+)(import)\b/, [T.Text, T.KeywordNamespace], '#pop'),
      rule(/\./, T.NameNamespace),
      rule(/None\b/, T.KeywordConstant, '#pop'),
      rule(IDENTIFIER, T.NameNamespace),
      fallback('#pop'),
    ],
  };
  for (const [quote, tokenClass, name] of STRING_KINDS) {
    states[`string-${name}`] = stringState(tokenClass, quote, true);
    states[`raw-${name}`] = stringState(tokenClass, quote, false);
    states[`fstring-${name}`] = formatStringState(tokenClass, quote);
    states[`raw-fstring-${name}`] = formatStringState(tokenClass, quote).filter((entry) => entry !== ESCAPE);
  }
  return { states };
}

export const PYTHON = pythonLexer(false);
/** Python 2: `print` and `exec` are statements. */
export const PYTHON_2 = pythonLexer(true);
