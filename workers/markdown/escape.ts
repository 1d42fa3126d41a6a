/**
 * The escaping flavours the dialect's output uses (api-notes §g shows each of them in the fixture).
 */

/** An ampersand that does not start a character reference such as `&amp;` or `&#39;`. */
const BARE_AMPERSAND = /&(?!#[0-9]+;|#x[0-9a-fA-F]+;|[a-zA-Z0-9]+;)/g;

/** Text nodes: `<`, `>` and bare `&`; entities the author typed are kept; quotes stay literal. */
export function escapeText(text: string): string {
  return text.replace(BARE_AMPERSAND, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values (always double-quoted by our renderers). */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Text shown exactly as given (inline code, names, timestamps): every `&` is literal, so nothing
 * the author typed survives as an entity.
 */
export function escapeLiteral(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const CODE_BLOCK_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const CODE_BLOCK_SPECIALS = /[&<>"']/g;

/**
 * Code blocks are escaped the way a highlighter's HTML formatter does it, quotes included (in
 * one pass: highlighted code escapes every token on its own).
 */
export function escapeCodeBlock(text: string): string {
  return text.replace(CODE_BLOCK_SPECIALS, (char) => CODE_BLOCK_ENTITIES[char] ?? char);
}

/** The display-math error message escapes quotes with `&#x27;` (fixture `tex_error_safe_script_tag`). */
export function escapeTexSource(text: string): string {
  return escapeLiteral(text).replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
}
