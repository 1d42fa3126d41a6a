/**
 * Inline image previews (api-notes §g "image URL (preview)"): a link to an image gets a
 * `message_inline_image` preview after the paragraph holding it (or at the end of its list
 * item). A paragraph or item that holds nothing but the bare image link is replaced by the
 * preview. Each URL is previewed once, links inside quotes are not previewed, and a message
 * with too many previewable URLs gets none.
 */
import type { Token, TokenizerAndRendererExtension, Tokens } from 'marked';
import { escapeAttribute } from './escape';
import { isToken, type DialectListItemToken, type ImagePreviewToken } from './tokens';
import { childLists } from './token-tree';
import { looksLikeImage, previewImageSources } from './url';

const PREVIEWABLE_URL_LIMIT = 24;

type LinkParent =
  { kind: 'paragraph'; paragraph: Tokens.Paragraph; container: Token[] } | { kind: 'item'; item: DialectListItemToken } | { kind: 'other' };

interface FoundLink {
  link: Tokens.Link;
  /** The inline token list the link sits in. */
  siblings: Token[];
  parent: LinkParent;
  inQuote: boolean;
  depth: number;
}

/**
 * Every link, in breadth-first document order (the order previews are attached in). A depth-first
 * walk sorted stably by depth gives exactly that order. Block-level text runs inside tight list
 * items are not elements of their own, so their links belong to the item.
 */
function findLinks(tokens: Token[], parent: LinkParent, depth: number, inQuote: boolean, found: FoundLink[]): void {
  for (const token of tokens) {
    if (token.type === 'link') {
      found.push({ link: token as Tokens.Link, siblings: tokens, parent, inQuote, depth });
      continue;
    }
    if (token.type === 'text' && parent.kind === 'item') {
      findLinks((token as Tokens.Text).tokens ?? [], parent, depth, inQuote, found);
      continue;
    }
    let childParent: LinkParent = { kind: 'other' };
    if (token.type === 'paragraph') childParent = { kind: 'paragraph', paragraph: token as Tokens.Paragraph, container: tokens };
    else if (isToken(token, 'dialectListItem')) childParent = { kind: 'item', item: token };
    const quoted = inQuote || token.type === 'blockquote';
    for (const list of childLists(token)) findLinks(list, childParent, depth + 1, quoted, found);
  }
}

/** The link's own leading text, or null when it starts with markup (the dialect's "link text"). */
function leadingText(link: Tokens.Link): string | null {
  const first = link.tokens[0];
  return first?.type === 'text' ? (first as Tokens.Text).text : null;
}

function textOnly(tokens: readonly Token[]): string {
  return tokens.map((token) => (token.type === 'text' ? (token as Tokens.Text).text : '\u0000')).join('');
}

function previewToken(href: string, title: string | null): ImagePreviewToken {
  const sources = previewImageSources(href);
  return { type: 'imagePreview', raw: '', href, title, src: sources.src, fullsizeSrc: sources.fullsizeSrc ?? null };
}

function attachToParagraph(
  found: FoundLink,
  paragraph: Tokens.Paragraph,
  container: Token[],
  preview: ImagePreviewToken,
  bare: boolean,
): void {
  const linksInParagraph = new Set<string>();
  for (const token of paragraph.tokens) if (token.type === 'link') linksInParagraph.add((token as Tokens.Link).href);
  let index = container.indexOf(paragraph) + 1;
  // Previews of earlier links of the same paragraph stay in front of this one.
  for (
    let next = container[index];
    next !== undefined && isToken(next, 'imagePreview') && linksInParagraph.has(next.href);
    next = container[++index]
  );
  container.splice(index, 0, preview);
  const onlyTheLink = paragraph.tokens.length === 1 && paragraph.tokens[0] === found.link;
  if (bare && onlyTheLink) container.splice(container.indexOf(paragraph), 1);
}

function attachToItem(found: FoundLink, item: DialectListItemToken, preview: ImagePreviewToken, bare: boolean): void {
  item.tokens.push(preview);
  const at = found.siblings.indexOf(found.link);
  const textBefore = textOnly(found.siblings.slice(0, at)) !== '';
  const textAfter = found.siblings[at + 1]?.type === 'text';
  if (bare && !textBefore && !textAfter) found.siblings.splice(at, 1);
}

export function addImagePreviews(root: Token[]): void {
  const found: FoundLink[] = [];
  findLinks(root, { kind: 'other' }, 1, false, found);
  found.sort((a, b) => a.depth - b.depth);
  const previewable = new Set(found.filter((entry) => !entry.inQuote).map((entry) => entry.link.href));
  if (previewable.size > PREVIEWABLE_URL_LIMIT) return;
  const handled = new Set<string>();
  for (const entry of found) {
    const href = entry.link.href;
    if (!previewable.has(href) || handled.has(href)) continue;
    handled.add(href);
    if (!looksLikeImage(href)) continue;
    const text = leadingText(entry.link);
    const bare = text === null || text === href;
    const preview = previewToken(href, bare ? null : text);
    const { parent } = entry;
    if (parent.kind === 'paragraph') attachToParagraph(entry, parent.paragraph, parent.container, preview, bare);
    else if (parent.kind === 'item') attachToItem(entry, parent.item, preview, bare);
    else root.push(preview);
  }
}

function renderPreview(token: Tokens.Generic): string | false {
  if (!isToken(token, 'imagePreview')) return false;
  const title = token.title === null ? '' : ` title="${escapeAttribute(token.title)}"`;
  const fullsize = token.fullsizeSrc === null ? '' : ` data-src-fullsize="${escapeAttribute(token.fullsizeSrc)}"`;
  return (
    `<div class="message_inline_image"><a href="${escapeAttribute(token.href)}"${title}>` +
    `<img${fullsize} src="${escapeAttribute(token.src)}"></a></div>`
  );
}

export const imagePreviewRenderer: TokenizerAndRendererExtension = { name: 'imagePreview', renderer: renderPreview };
