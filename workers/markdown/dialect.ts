/**
 * The one marked instance the renderer uses, built once per module (and so once per worker
 * thread). It is private to this module: the global `marked` is never configured. Everything that
 * depends on the realm comes from the per-render state (render-state.ts).
 */
import { Marked, type Token } from 'marked';
import { fencedBlockExtension, mathBlockRenderer, spoilerRenderer } from './block-fences';
import { listExtension } from './block-list';
import { quoteExtension } from './block-quote';
import { imagePreviewRenderer } from './image-previews';
import { emojiExtension } from './inline-emoji';
import { linkifierExtension, markdownLinkExtension, webLinkExtension } from './inline-links';
import { groupMentionRenderer, mentionExtension, streamLinkExtension } from './inline-mentions';
import { inlineTexExtension } from './inline-tex';
import { timestampExtension } from './inline-timestamp';
import { DialectRenderer } from './renderer';
import { DialectTokenizer } from './tokenizer';

/**
 * marked tries the extension registered last first, so these lists run from lowest to highest
 * precedence. Inline, that is the dialect's order (api-notes §g): mentions and stream links bind
 * tightest, then math and timestamps, then links, bare URLs, linkifiers, and emoji last.
 */
const BLOCK_EXTENSIONS = [listExtension, quoteExtension, fencedBlockExtension];
const INLINE_EXTENSIONS = [
  emojiExtension,
  linkifierExtension,
  webLinkExtension,
  markdownLinkExtension,
  timestampExtension,
  inlineTexExtension,
  streamLinkExtension,
  mentionExtension,
];
const RENDERERS = [groupMentionRenderer, mathBlockRenderer, spoilerRenderer, imagePreviewRenderer];

const dialect = new Marked({ gfm: true, breaks: true, pedantic: false, async: false })
  .use({ extensions: [...BLOCK_EXTENSIONS, ...INLINE_EXTENSIONS, ...RENDERERS] })
  .setOptions({ tokenizer: new DialectTokenizer(), renderer: new DialectRenderer() });

export function lexDialect(source: string): Token[] {
  return dialect.lexer(source);
}

export function renderDialectTokens(tokens: Token[]): string {
  return dialect.parser(tokens);
}
