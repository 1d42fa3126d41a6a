/** Ruby and PHP, tokenized as the reference highlighter's lexers for them do. */
import { INPUT_START, fallback, rule, words, type LexerDefinition, type Rule } from '../lexer';
import * as T from '../token-classes';

const RUBY_BUILTINS = [
  'Array', 'Float', 'Integer', 'String', '__id__', '__send__', 'abort', 'ancestors', 'at_exit', 'autoload', 'binding',
  'callcc', 'caller', 'catch', 'chomp', 'chop', 'class_eval', 'class_variables', 'clone', 'const_get',
  'const_missing', 'const_set', 'constants', 'display', 'dup', 'eval', 'exec', 'exit', 'extend', 'fail', 'fork',
  'format', 'freeze', 'getc', 'gets', 'global_variables', 'gsub', 'hash', 'id', 'included_modules', 'inspect',
  'instance_eval', 'instance_method', 'instance_methods', 'instance_variable_get', 'instance_variable_set',
  'instance_variables', 'lambda', 'load', 'local_variables', 'loop', 'method', 'method_missing', 'methods',
  'module_eval', 'name', 'object_id', 'open', 'p', 'print', 'printf', 'private_class_method',
  'private_instance_methods', 'private_methods', 'proc', 'protected_instance_methods', 'protected_methods',
  'public_class_method', 'public_instance_methods', 'public_methods', 'putc', 'puts', 'raise', 'rand', 'readline',
  'readlines', 'require', 'scan', 'select', 'self', 'send', 'set_trace_func', 'singleton_methods', 'sleep', 'split',
  'sprintf', 'srand', 'sub', 'syscall', 'system', 'taint', 'test', 'throw', 'to_a', 'to_s', 'trace_var', 'trap',
  'untaint', 'untrace_var', 'warn',
];

const RUBY_INTERPOLATION: Rule[] = [
  rule(/#\{/, T.StringInterpol, 'in-interpolation'),
  rule(/#@@?[a-zA-Z_]\w*/, T.StringInterpol),
  rule(/#\$[a-zA-Z_]\w*/, T.StringInterpol),
  rule(/\\([\\abefnrstv#"']|x[a-fA-F0-9]{1,2}|[0-7]{1,3})/, T.StringEscape),
];

const RUBY_ROOT: Rule[] = [
  rule(`${INPUT_START}#!.+?$`, T.CommentHashbang),
  rule(/#.*?$/, T.CommentSingle),
  rule(/=begin\s[\s\S]*?\n=end.*?$/, T.CommentMultiline),
  rule(
    words([
      'BEGIN', 'END', 'alias', 'begin', 'break', 'case', 'defined?', 'do', 'else', 'elsif', 'end', 'ensure', 'for', 'if',
      'in', 'next', 'redo', 'rescue', 'raise', 'retry', 'return', 'super', 'then', 'undef', 'unless', 'until', 'when',
      'while', 'yield',
    ]),
    T.Keyword,
  ),
  rule(/(module)(\s+)([a-zA-Z_]\w*(?:::[a-zA-Z_]\w*)*)/, [T.Keyword, T.Text, T.NameNamespace]),
  rule(/(def)(\s+)/, [T.Keyword, T.Text], 'funcname'),
  rule(/def(?=[*%&^`~+-/[<>=])/, T.Keyword, 'funcname'),
  rule(/(class)(\s+)/, [T.Keyword, T.Text], 'classname'),
  rule(
    words([
      'initialize', 'new', 'loop', 'include', 'extend', 'raise', 'attr_reader', 'attr_writer', 'attr_accessor', 'attr',
      'catch', 'throw', 'private', 'module_function', 'public', 'protected', 'true', 'false', 'nil',
    ]),
    T.KeywordPseudo,
  ),
  rule(/(not|and|or)\b/, T.OperatorWord),
  rule(
    words(
      ['autoload', 'block_given', 'const_defined', 'eql', 'equal', 'frozen', 'include', 'instance_of', 'is_a', 'iterator', 'kind_of', 'method_defined', 'nil', 'respond_to', 'tainted'],
      '',
      '\\?',
    ),
    T.NameBuiltin,
  ),
  rule(/(chomp|chop|exit|gsub|lstrip|rstrip|strip|sub)!/, T.NameBuiltin),
  rule(words(RUBY_BUILTINS, '(?<!\\.)'), T.NameBuiltin),
  rule(/__(FILE|LINE)__\b/, T.NameBuiltinPseudo),
  rule(/__END__/, T.CommentPreproc, 'end-part'),
  rule(/(?<=\(|,|\[)\//, T.StringRegex, 'regex'),
  rule(/(?:^|(?<=[=<>~!:]))(\s*)(\/)/, [T.Text, T.StringRegex], 'regex'),
  rule(/(0_?[0-7]+(?:_[0-7]+)*)(\s*)([/?])?/, [T.NumberOct, T.Text, T.Operator]),
  rule(/(0x[0-9A-Fa-f]+(?:_[0-9A-Fa-f]+)*)(\s*)([/?])?/, [T.NumberHex, T.Text, T.Operator]),
  rule(/(0b[01]+(?:_[01]+)*)(\s*)([/?])?/, [T.NumberBin, T.Text, T.Operator]),
  rule(/(\d+(?:_\d+)*)(\s*)([/?])?/, [T.NumberInteger, T.Text, T.Operator]),
  rule(/@@[a-zA-Z_]\w*/, T.NameVariableClass),
  rule(/@[a-zA-Z_]\w*/, T.NameVariableInstance),
  rule(/\$\w+/, T.NameVariableGlobal),
  rule(/\$[!@&`'+~=/\\,;.<>_*$?:"^-]/, T.NameVariableGlobal),
  rule(/::/, T.Operator),
  rule(/:@{0,2}[a-zA-Z_]\w*[!?]?/, T.StringSymbol),
  rule(/:'(\\\\|\\[^\\]|[^'\\])*'/, T.StringSymbol),
  rule(/:"(\\\\|\\[^\\]|[^"\\])*"/, T.StringSymbol),
  rule(/([a-zA-Z_]\w*)(:)(?!:)/, [T.StringSymbol, T.Punctuation]),
  rule(/"/, T.StringDouble, 'string-double'),
  rule(/'/, T.StringSingle, 'string-single'),
  rule(/(?<!\.)`/, T.StringBacktick, 'backtick'),
  rule(/\?(\\[MC]-)*(\\([\\abefnrstv#"']|x[a-fA-F0-9]{1,2}|[0-7]{1,3})|\S)(?!\w)/, T.StringChar),
  rule(/[A-Z]\w+/, T.NameConstant),
  rule(/(\.|::)([a-zA-Z_]\w*[!?]?|[*%&^`~+\-/[<>=])/, [T.Operator, T.Name]),
  rule(/[a-zA-Z_]\w*[!?]?/, T.Name),
  rule(/(\[|\]|\*\*|<<?|>>?|>=|<=|<=>|=~|={3}|!~|&&?|\|\||\.{1,3})/, T.Operator),
  rule(/[-+/*%=<>&!^|~]=?/, T.Operator),
  rule(/[(){};,/?:\\]/, T.Punctuation),
  rule(/\s+/, T.Text),
];

export const RUBY: LexerDefinition = {
  states: {
    root: RUBY_ROOT,
    funcname: [
      rule(/\(/, T.Punctuation, '#pop'),
      rule(
        /(?:([a-zA-Z_]\w*)(\.))?([a-zA-Z\u0080-\uffff][a-zA-Z0-9_\u0080-\uffff]*[!?=]?|!=|!~|=~|\*\*?|[-+!~]@?|[/%&|^]|<=>|<[<=]?|>[>=]?|===?|\[\]=?|`)/,
        [T.NameClass, T.Operator, T.NameFunction],
        '#pop',
      ),
      fallback('#pop'),
    ],
    classname: [rule(/<</, T.Operator, '#pop'), rule(/[A-Z_]\w*/, T.NameClass, '#pop'), fallback('#pop')],
    'string-double': [...RUBY_INTERPOLATION, rule(/[^\\"#]+/, T.StringDouble), rule(/[\\#]/, T.StringDouble), rule(/"/, T.StringDouble, '#pop')],
    'string-single': [rule(/[^\\']+/, T.StringSingle), rule(/\\\\|\\'|\\/, T.StringSingle), rule(/'/, T.StringSingle, '#pop')],
    backtick: [...RUBY_INTERPOLATION, rule(/[^\\`#]+/, T.StringBacktick), rule(/[\\#]/, T.StringBacktick), rule(/`/, T.StringBacktick, '#pop')],
    regex: [
      rule(/#\{/, T.StringInterpol, 'in-interpolation'),
      rule(/\\\\|\\\//, T.StringRegex),
      rule(/[^\\/#]+/, T.StringRegex),
      rule(/[\\#]/, T.StringRegex),
      rule(/\/[mixounse]*/, T.StringRegex, '#pop'),
    ],
    'in-interpolation': [rule(/\{/, T.StringInterpol, 'in-interpolation'), rule(/\}/, T.StringInterpol, '#pop'), ...RUBY_ROOT],
    'end-part': [rule(/[\s\S]+/, T.CommentPreproc, '#pop')],
  },
};

const PHP_IDENTIFIER = '(?:[\\\\_a-zA-Z]|[^\\x00-\\x7f])(?:[\\\\\\w]|[^\\x00-\\x7f])*';

const PHP_KEYWORDS = [
  'and', 'E_PARSE', 'old_function', 'E_ERROR', 'or', 'as', 'E_WARNING', 'parent', 'eval', 'PHP_OS', 'break', 'exit',
  'case', 'extends', 'PHP_VERSION', 'cfunction', 'FALSE', 'print', 'for', 'require', 'continue', 'foreach',
  'require_once', 'declare', 'return', 'default', 'static', 'do', 'switch', 'die', 'stdClass', 'echo', 'else',
  'TRUE', 'elseif', 'var', 'empty', 'if', 'xor', 'enddeclare', 'include', 'virtual', 'endfor', 'include_once',
  'while', 'endforeach', 'global', 'endif', 'list', 'endswitch', 'new', 'endwhile', 'not', 'array', 'E_ALL',
  'NULL', 'final', 'php_user_filter', 'interface', 'implements', 'public', 'private', 'protected', 'abstract',
  'clone', 'try', 'catch', 'throw', 'this', 'use', 'namespace', 'trait', 'yield', 'finally', 'match', 'enum',
  'readonly', 'fn', 'insteadof', 'instanceof', 'goto', 'isset', 'unset',
];

/** PHP as pasted in a chat: the code starts in PHP mode, no `<?php` needed (as the reference renders it). */
export const PHP: LexerDefinition = {
  initial: ['root', 'php'],
  states: {
    root: [rule(/<\?(php)?/, T.CommentPreproc, 'php'), rule(/[^<]+/, T.Text), rule(/</, T.Text)],
    php: [
      rule(/\?>/, T.CommentPreproc, '#pop'),
      rule(/<\?(php|=)?/, T.CommentPreproc),
      rule(/\s+/, T.Text),
      rule(/#\[/, T.Punctuation, 'attribute'),
      rule(/#.*?\n/, T.CommentSingle),
      rule(/\/\/.*?\n/, T.CommentSingle),
      rule(/\/\*\*\//, T.CommentMultiline),
      rule(/\/\*\*[\s\S]*?\*\//, T.StringDoc),
      rule(/\/\*[\s\S]*?\*\//, T.CommentMultiline),
      rule(new RegExp(`(->|::)(\\s*)(${PHP_IDENTIFIER})`), [T.Operator, T.Text, T.NameAttribute]),
      rule(/[~!%^&*+=|:.<>/@-]+/, T.Operator),
      rule(/\?/, T.Operator),
      rule(/[[\]{}();,]+/, T.Punctuation),
      rule(/(new)(\s+)(class)\b/, [T.Keyword, T.Text, T.Keyword]),
      rule(/(class)(\s+)/, [T.Keyword, T.Text], 'classname'),
      rule(/(function)(\s*)(?=\()/, [T.Keyword, T.Text]),
      rule(/(function)(\s+)(&?)(\s*)/, [T.Keyword, T.Text, T.Operator, T.Text], 'functionname'),
      rule(new RegExp(`(const)(\\s+)(${PHP_IDENTIFIER})`), [T.Keyword, T.Text, T.NameConstant]),
      rule(new RegExp(words(PHP_KEYWORDS), 'i'), T.Keyword),
      rule(/(true|false|null)\b/i, T.KeywordConstant),
      rule(/\$\{/, T.NameVariable, 'variablevariable'),
      rule(new RegExp(`\\$+${PHP_IDENTIFIER}`), T.NameVariable),
      rule(new RegExp(PHP_IDENTIFIER), T.NameOther),
      rule(/(\d+\.\d*|\d*\.\d+)(e[+-]?[0-9]+)?/i, T.NumberFloat),
      rule(/\d+e[+-]?[0-9]+/i, T.NumberFloat),
      rule(/0[0-7]+/, T.NumberOct),
      rule(/0x[a-f0-9]+/i, T.NumberHex),
      rule(/\d+/, T.NumberInteger),
      rule(/0b[01]+/, T.NumberBin),
      rule(/'([^'\\]*(?:\\.[^'\\]*)*)'/, T.StringSingle),
      rule(/`([^`\\]*(?:\\.[^`\\]*)*)`/, T.StringBacktick),
      rule(/"/, T.StringDouble, 'string'),
    ],
    variablevariable: [rule(/\}/, T.NameVariable, '#pop')],
    classname: [rule(new RegExp(PHP_IDENTIFIER), T.NameClass, '#pop'), fallback('#pop')],
    functionname: [rule(new RegExp(PHP_IDENTIFIER), T.NameFunction, '#pop'), fallback('#pop')],
    attribute: [rule(/\]/, T.Punctuation, '#pop'), rule(/\(/, T.Punctuation, 'attributeparams'), rule(new RegExp(PHP_IDENTIFIER), T.NameDecorator), rule(/\s+/, T.Text)],
    attributeparams: [rule(/\)/, T.Punctuation, '#pop'), rule(/[^)]+/, T.Text)],
    string: [
      rule(/"/, T.StringDouble, '#pop'),
      rule(/[^{$"\\]+/, T.StringDouble),
      rule(/\\([nrt"$\\]|[0-7]{1,3}|x[0-9a-f]{1,2})/i, T.StringEscape),
      rule(new RegExp(`\\$${PHP_IDENTIFIER}(\\[\\S+?\\]|->${PHP_IDENTIFIER})?`), T.StringInterpol),
      rule(/(\{\$\{)([\s\S]*?)(\}\})/, [T.StringInterpol, { using: 'this' }, T.StringInterpol]),
      rule(/(\{)(\$[\s\S]*?)(\})/, [T.StringInterpol, { using: 'this' }, T.StringInterpol]),
      rule(/(\$\{)(\S+)(\})/, [T.StringInterpol, T.NameVariable, T.StringInterpol]),
      rule(/[${\\]/, T.StringDouble),
    ],
  },
};
