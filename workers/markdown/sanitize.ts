/**
 * Second line of defence: the renderer already escapes everything the author wrote, and this
 * allow-list admits exactly the tags, attributes and classes the dialect produces (api-notes §g),
 * links limited to the dialect's schemes. Entities are left as written (so `&#39;` in code stays
 * byte-identical); instead, URLs and styles are checked again with entities decoded.
 */
import sanitizeHtml from 'sanitize-html';
import { HIGHLIGHT_CLASSES } from './highlight';
import { KATEX_ATTRIBUTES, KATEX_SPAN_CLASSES, KATEX_STYLE_PROPERTIES, KATEX_TAGS } from './sanitize-katex';
import { ALLOWED_LINK_SCHEMES } from './url';

const DIALECT_TAGS = [
  'p',
  'br',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'div',
  'span',
  'a',
  'img',
  'blockquote',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'time',
];

const DIALECT_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title', 'class', 'data-stream-id'],
  span: ['class', 'title', 'role', 'aria-label', 'aria-hidden', 'data-user-id', 'data-user-group-id'],
  div: ['class', 'aria-hidden', 'data-code-language'],
  img: ['alt', 'class', 'src', 'title', 'data-src-fullsize'],
  ol: ['start'],
  time: ['datetime'],
  th: ['style'],
  td: ['style'],
};

function mergeAttributes(...sources: Record<string, string[]>[]): Record<string, string[]> {
  const merged: Record<string, string[]> = {};
  for (const source of sources) {
    for (const [tag, names] of Object.entries(source)) merged[tag] = [...(merged[tag] ?? []), ...names];
  }
  return merged;
}

const ALLOWED_CLASSES: Record<string, (string | RegExp)[]> = {
  a: ['stream', 'stream-topic'],
  img: ['emoji'],
  div: ['codehilite', 'spoiler-block', 'spoiler-header', 'spoiler-content', 'message_inline_image'],
  span: [
    'user-mention',
    'user-group-mention',
    'silent',
    'emoji',
    /^emoji-[0-9a-f-]+$/,
    'timestamp-error',
    'tex-error',
    ...KATEX_SPAN_CLASSES,
    ...HIGHLIGHT_CLASSES,
  ],
};

const ENTITY = /&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);?/gi;
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  colon: ':',
  tab: '\t',
  newline: '\n',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

/** What a browser reads out of an attribute value: character references decoded. */
function decodeAttribute(value: string): string {
  return value.replace(ENTITY, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16) || 0xfffd);
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10) || 0xfffd);
    return NAMED_ENTITIES[lower] ?? whole;
  });
}

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

function isAllowedUrl(value: string): boolean {
  const url = decodeAttribute(value).replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  if (url.startsWith('//') || url.startsWith('\\')) return false;
  const scheme = SCHEME.exec(url);
  return scheme === null || ALLOWED_LINK_SCHEMES.includes((scheme[1] ?? '').toLowerCase());
}

const STYLE_DECLARATION = /^\s*([a-z-]+)\s*:\s*([-+#.%a-z0-9 ]+)\s*$/i;
const TABLE_CELL_STYLE = /^text-align: (left|center|right);$/;

function isAllowedStyle(tagName: string, style: string): boolean {
  if (tagName === 'th' || tagName === 'td') return TABLE_CELL_STYLE.test(style);
  return style
    .split(';')
    .filter((declaration) => declaration.trim() !== '')
    .every((declaration) => {
      const parsed = STYLE_DECLARATION.exec(declaration);
      return parsed !== null && KATEX_STYLE_PROPERTIES.has((parsed[1] ?? '').toLowerCase());
    });
}

function checkUrlsAndStyles(tagName: string, attribs: sanitizeHtml.Attributes): sanitizeHtml.Tag {
  const checked: sanitizeHtml.Attributes = {};
  for (const [name, value] of Object.entries(attribs)) {
    if ((name === 'href' || name === 'src' || name === 'data-src-fullsize') && !isAllowedUrl(value)) continue;
    if (name === 'style' && !isAllowedStyle(tagName, decodeAttribute(value))) continue;
    checked[name] = value;
  }
  return { tagName, attribs: checked };
}

function optionsFor(tags: string[], attributes: Record<string, string[]>): sanitizeHtml.IOptions {
  return {
    allowedTags: tags,
    allowedAttributes: attributes,
    allowedClasses: ALLOWED_CLASSES,
    allowedSchemes: [...ALLOWED_LINK_SCHEMES],
    allowedSchemesAppliedToAttributes: ['href', 'src', 'data-src-fullsize'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    // KaTeX writes `height:0.8889em;` and would be reformatted by style parsing; styles are
    // checked by checkUrlsAndStyles instead.
    parseStyleAttributes: false,
    parser: { decodeEntities: false, lowerCaseAttributeNames: false },
    transformTags: { '*': checkUrlsAndStyles },
  };
}

/** sanitize-html prepares its options on every call, so messages without math use a smaller set. */
const WITHOUT_MATH = optionsFor(DIALECT_TAGS, DIALECT_ATTRIBUTES);
const WITH_MATH = optionsFor([...DIALECT_TAGS, ...KATEX_TAGS], mergeAttributes(DIALECT_ATTRIBUTES, KATEX_ATTRIBUTES));

export function sanitizeRenderedHtml(html: string, hasMath: boolean): string {
  if (!hasMath && isPlainParagraphs(html)) return html;
  return sanitizeWithAllowList(html, hasMath);
}

/** The full pass: parses the HTML and rebuilds it from the allow-list. */
export function sanitizeWithAllowList(html: string, hasMath: boolean): string {
  // sanitize-html writes void elements as `<br />`; the dialect writes `<br>`.
  return sanitizeHtml(html, hasMath ? WITH_MATH : WITHOUT_MATH).replace(/ \/>/g, '>');
}

// Attribute-less inline tags, `<br>`, character references as sanitize-html recognises them
// (at most 20 characters), or a bare `<`, `>` or `&`.
const PLAIN_MARKUP = /<(\/?)(p|strong|em|del|code|br)>|&[a-zA-Z0-9#]{1,20};|[<>&]/g;

/**
 * Is `html` only escaped text in top-level paragraphs, with balanced attribute-less inline tags?
 * Most chat messages are, and for them the allow-list pass is the identity (a unit test checks
 * it against the full pass), so the parse it costs (15 µs of a 50-character message) is skipped.
 * Nothing here can carry script: no attributes, no tag outside the allow-list, no bare `<`.
 */
export function isPlainParagraphs(html: string): boolean {
  const open: string[] = [];
  for (const [whole, closing, tag] of html.matchAll(PLAIN_MARKUP)) {
    if (tag === undefined) {
      if (whole.length === 1) return false;
    } else if (tag === 'br') {
      if (closing !== '') return false;
    } else if (closing !== '') {
      if (open.pop() !== tag) return false;
    } else if ((tag === 'p') !== (open.length === 0)) {
      // The parser closes an open paragraph when another opens, so paragraphs must not nest;
      // inline tags live only inside one.
      return false;
    } else {
      open.push(tag);
    }
  }
  return open.length === 0;
}
