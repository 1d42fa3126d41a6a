/** HTML, XML and CSS, tokenized as the reference highlighter's lexers for them do. */
import { fallback, rule, words, type LexerDefinition, type Rule } from '../lexer';
import * as T from '../token-classes';
import { JAVASCRIPT } from './javascript';

const CSS_KEYWORD_VALUES = [
  'absolute', 'alias', 'all', 'auto', 'baseline', 'block', 'bold', 'bolder', 'border-box', 'both', 'bottom', 'break-word',
  'capitalize', 'center', 'circle', 'collapse', 'column', 'contain', 'content-box', 'cover', 'crosshair', 'currentColor',
  'dashed', 'default', 'disc', 'dotted', 'double', 'ease', 'ease-in', 'ease-in-out', 'ease-out', 'ellipsis', 'end',
  'fixed', 'flex', 'flex-end', 'flex-start', 'grid', 'groove', 'hidden', 'inherit', 'initial', 'inline', 'inline-block',
  'inline-flex', 'inset', 'italic', 'justify', 'left', 'lighter', 'line-through', 'linear', 'lowercase', 'middle',
  'no-repeat', 'none', 'normal', 'nowrap', 'outset', 'pointer', 'pre', 'pre-wrap', 'relative', 'repeat', 'revert',
  'ridge', 'right', 'row', 'scroll', 'separate', 'small', 'solid', 'space-around', 'space-between', 'square',
  'start', 'static', 'sticky', 'stretch', 'table', 'text', 'top', 'transparent', 'underline', 'unset', 'uppercase',
  'visible', 'wrap',
];

const CSS_COLOR_KEYWORDS = [
  'aqua', 'black', 'blue', 'fuchsia', 'gray', 'green', 'grey', 'lime', 'maroon', 'navy', 'olive', 'orange', 'purple',
  'red', 'silver', 'teal', 'white', 'yellow', 'rebeccapurple',
];

const CSS_FUNCTIONS = [
  'attr', 'calc', 'clamp', 'counter', 'cubic-bezier', 'env', 'hsl', 'hsla', 'linear-gradient', 'max', 'min', 'minmax',
  'radial-gradient', 'repeat', 'rgb', 'rgba', 'rotate', 'scale', 'translate', 'translateX', 'translateY', 'url', 'var',
];

const CSS_UNITS = [
  'Q', 'ch', 'cm', 'deg', 'dpcm', 'dpi', 'dppx', 'em', 'ex', 'fr', 'grad', 'Hz', 'in', 'kHz', 'mm', 'ms', 'pc', 'pt', 'px',
  'rad', 'rem', 's', 'turn', 'vh', 'vmax', 'vmin', 'vw',
];

const CSS_STRINGS: Rule[] = [
  rule(/"(\\\\|\\[^\\]|[^"\\])*"/, T.StringDouble),
  rule(/'(\\\\|\\[^\\]|[^'\\])*'/, T.StringSingle),
];

const CSS_COMMENT = rule(/\/\*(?:.|\n)*?\*\//, T.Comment);

const CSS_NUMBERS: Rule[] = [
  rule(/#[a-zA-Z0-9]{1,6}/, T.NumberHex),
  rule(/[+-]?[0-9]*[.][0-9]+/, T.NumberFloat, 'numeric-end'),
  rule(/[+-]?[0-9]+/, T.NumberInteger, 'numeric-end'),
];

const CSS_VALUE_WORDS: Rule[] = [
  rule(new RegExp(`(${words(CSS_FUNCTIONS)})(\\()`), [T.NameBuiltin, T.Punctuation], 'function-start'),
  rule(/([a-zA-Z_][\w-]+)(\()/, [T.NameFunction, T.Punctuation], 'function-start'),
  rule(new RegExp(words([...CSS_KEYWORD_VALUES, ...CSS_COLOR_KEYWORDS], '', '(?![\\w-])')), T.KeywordConstant),
];

export const CSS: LexerDefinition = {
  states: {
    root: [
      rule(/\s+/, T.Text),
      CSS_COMMENT,
      rule(/\{/, T.Punctuation, 'content'),
      rule(/(:{1,2})([\w-]+)/, [T.Punctuation, T.NameDecorator]),
      rule(/(\.)([\w-]+)/, [T.Punctuation, T.NameClass]),
      rule(/(#)([\w-]+)/, [T.Punctuation, T.NameNamespace]),
      rule(/(@)([\w-]+)/, [T.Punctuation, T.Keyword], 'atrule'),
      rule(/[\w-]+/, T.NameTag),
      rule(/[~^*!%&$[\]()<>|+=@:;,./?-]/, T.Operator),
      ...CSS_STRINGS,
    ],
    atrule: [rule(/\{/, T.Punctuation, 'atcontent'), rule(/;/, T.Punctuation, '#pop'), rule(/\s+/, T.Text), ...CSS_STRINGS, ...CSS_VALUE_WORDS, ...CSS_NUMBERS, rule(/[(),:]/, T.Punctuation), rule(/[\w-]+/, T.Name)],
    atcontent: [
      rule(/\s+/, T.Text),
      CSS_COMMENT,
      rule(/\}/, T.Punctuation, '#pop:2'),
      rule(/\{/, T.Punctuation, 'content'),
      rule(/(:{1,2})([\w-]+)/, [T.Punctuation, T.NameDecorator]),
      rule(/(\.)([\w-]+)/, [T.Punctuation, T.NameClass]),
      rule(/(#)([\w-]+)/, [T.Punctuation, T.NameNamespace]),
      rule(/[\w-]+/, T.NameTag),
      rule(/[~^*!%&$[\]()<>|+=@:;,./?-]/, T.Operator),
      ...CSS_STRINGS,
    ],
    content: [
      rule(/\s+/, T.Text),
      rule(/\}/, T.Punctuation, '#pop'),
      rule(/;/, T.Punctuation),
      rule(/^@.*?$/, T.CommentPreproc),
      rule(/(--[a-zA-Z_][\w-]*)(\s*)(:)/, [T.NameVariable, T.Text, T.Punctuation], 'value-start'),
      rule(/([a-zA-Z_-][\w-]*)(\s*)(:)/, [T.Keyword, T.Text, T.Punctuation], 'value-start'),
      CSS_COMMENT,
    ],
    'value-start': [
      rule(/\s+/, T.Text),
      ...CSS_VALUE_WORDS,
      rule(/!important/, T.CommentPreproc),
      CSS_COMMENT,
      ...CSS_NUMBERS,
      rule(/[~^*!%&<>|+=@:./?-]+/, T.Operator),
      rule(/[[\](),]+/, T.Punctuation),
      ...CSS_STRINGS,
      rule(/[a-zA-Z_][\w-]*/, T.Name),
      rule(/;/, T.Punctuation, '#pop'),
      rule(/\}/, T.Punctuation, '#pop:2'),
    ],
    'function-start': [
      rule(/\s+/, T.Text),
      rule(/--[\w-]+/, T.NameVariable),
      ...CSS_VALUE_WORDS,
      CSS_COMMENT,
      ...CSS_NUMBERS,
      rule(/[*+/-]/, T.Operator),
      rule(/,/, T.Punctuation),
      ...CSS_STRINGS,
      rule(/[a-zA-Z_-]\w*/, T.Name),
      rule(/\)/, T.Punctuation, '#pop'),
    ],
    'numeric-end': [rule(new RegExp(words(CSS_UNITS, '', '(?![\\w-])')), T.KeywordType), rule(/%/, T.KeywordType), fallback('#pop')],
  },
};

export const HTML: LexerDefinition = {
  states: {
    root: [
      rule(/[^<&]+/, T.Text),
      rule(/&\S*?;/, T.NameEntity),
      rule(/<!\[CDATA\[[\s\S]*?\]\]>/, T.CommentPreproc),
      rule(/<!--/, T.CommentMultiline, 'comment'),
      rule(/<\?[\s\S]*?\?>/, T.CommentPreproc),
      rule(/<![^>]*>/, T.CommentPreproc),
      rule(/(<)(\s*)(script)(\s*)/, [T.Punctuation, T.Text, T.NameTag, T.Text], ['script-content', 'tag']),
      rule(/(<)(\s*)(style)(\s*)/, [T.Punctuation, T.Text, T.NameTag, T.Text], ['style-content', 'tag']),
      rule(/(<)(\s*)([\w:.-]+)/, [T.Punctuation, T.Text, T.NameTag], 'tag'),
      rule(/(<)(\s*)(\/)(\s*)([\w:.-]+)(\s*)(>)/, [T.Punctuation, T.Text, T.Punctuation, T.Text, T.NameTag, T.Text, T.Punctuation]),
    ],
    comment: [rule(/[^-]+/, T.CommentMultiline), rule(/-->/, T.CommentMultiline, '#pop'), rule(/-/, T.CommentMultiline)],
    tag: [
      rule(/\s+/, T.Text),
      rule(/([\w:-]+\s*)(=)(\s*)/, [T.NameAttribute, T.Operator, T.Text], 'attr'),
      rule(/[\w:-]+/, T.NameAttribute),
      rule(/(\/?)(\s*)(>)/, [T.Punctuation, T.Text, T.Punctuation], '#pop'),
    ],
    'script-content': [
      rule(/(<)(\s*)(\/)(\s*)(script)(\s*)(>)/, [T.Punctuation, T.Text, T.Punctuation, T.Text, T.NameTag, T.Text, T.Punctuation], '#pop'),
      rule(/[\s\S]+?(?=<\s*\/\s*script\s*>)/, { using: JAVASCRIPT }),
      rule(/[\s\S]+/, { using: JAVASCRIPT }, '#pop'),
    ],
    'style-content': [
      rule(/(<)(\s*)(\/)(\s*)(style)(\s*)(>)/, [T.Punctuation, T.Text, T.Punctuation, T.Text, T.NameTag, T.Text, T.Punctuation], '#pop'),
      rule(/[\s\S]+?(?=<\s*\/\s*style\s*>)/, { using: CSS }),
      rule(/[\s\S]+/, { using: CSS }, '#pop'),
    ],
    attr: [rule(/"[\s\S]*?"/, T.String, '#pop'), rule(/'[\s\S]*?'/, T.String, '#pop'), rule(/[^\s>]+/, T.String, '#pop')],
  },
};

export const XML: LexerDefinition = {
  states: {
    root: [
      rule(/[^<&\s]+/, T.Text),
      rule(/[^<&\S]+/, T.Text),
      rule(/&\S*?;/, T.NameEntity),
      rule(/<!\[CDATA\[[\s\S]*?\]\]>/, T.CommentPreproc),
      rule(/<!--/, T.CommentMultiline, 'comment'),
      rule(/<\?[\s\S]*?\?>/, T.CommentPreproc),
      rule(/<![^>]*>/, T.CommentPreproc),
      rule(/<\s*[\w:.-]+/, T.NameTag, 'tag'),
      rule(/<\s*\/\s*[\w:.-]+\s*>/, T.NameTag),
    ],
    comment: [rule(/[^-]+/, T.CommentMultiline), rule(/-->/, T.CommentMultiline, '#pop'), rule(/-/, T.CommentMultiline)],
    tag: [rule(/\s+/, T.Text), rule(/[\w.:-]+\s*=/, T.NameAttribute, 'attr'), rule(/\/?\s*>/, T.NameTag, '#pop')],
    attr: [rule(/\s+/, T.Text), rule(/"[\s\S]*?"/, T.String, '#pop'), rule(/'[\s\S]*?'/, T.String, '#pop'), rule(/[^\s>]+/, T.String, '#pop')],
  },
};
