/**
 * What the page adds to the server's message HTML once it is in the DOM: emoji characters in
 * emoji spans, spoilers that open on click, links that open in a new tab (except uploads, which
 * the session cookie lets the browser show here), a highlight on mentions of me, and the roles
 * that announce the edit history's diff marks as insertions and deletions.
 */
import { emojiImageUrl, emojiText } from '../common/emoji';
import { imageOfPreview, openImage } from './image-viewer';

const EMOJI_CLASS = /^emoji-([0-9a-f]+(?:-[0-9a-f]+)*)$/;

export function enhanceContent(root: HTMLElement, myId: number, emojiset: unknown): void {
  for (const span of root.querySelectorAll<HTMLSpanElement>('span.emoji')) {
    const code = [...span.classList].map((name) => EMOJI_CLASS.exec(name)?.[1]).find((match) => match !== undefined);
    if (code) showEmoji(span, code, emojiset);
  }
  for (const link of root.querySelectorAll<HTMLAnchorElement>('a[href]')) {
    const href = link.getAttribute('href') ?? '';
    // Links into the app (`#**stream**` renders `/#narrow/stream/12-name`) open their view in place.
    if (href.startsWith('/user_uploads/') || href.startsWith('#') || href.startsWith('/#')) continue;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
  }
  for (const mention of root.querySelectorAll<HTMLElement>('.user-mention[data-user-id]')) {
    if (mention.dataset['userId'] === String(myId)) mention.classList.add('mention-of-me');
  }
  // content_html_diff (GET /messages/{message_id}/history) marks changed words with these classes.
  for (const mark of root.querySelectorAll('.highlight_text_inserted')) mark.setAttribute('role', 'insertion');
  for (const mark of root.querySelectorAll('.highlight_text_deleted')) mark.setAttribute('role', 'deletion');
  for (const header of root.querySelectorAll<HTMLElement>('.spoiler-header')) {
    header.tabIndex = 0;
    header.setAttribute('role', 'button');
    header.setAttribute('aria-expanded', 'false');
  }
}

/** An emoji span shows its image in the person's set, or its characters (also when the image fails). */
function showEmoji(span: HTMLSpanElement, code: string, emojiset: unknown): void {
  const text = emojiText(code);
  const url = emojiImageUrl(code, emojiset);
  if (url === null) {
    span.textContent = text;
    return;
  }
  const image = document.createElement('img');
  image.className = 'emoji-image';
  image.src = url;
  // Copying the message copies the emoji's characters; the span's aria-label names it.
  image.alt = text;
  image.addEventListener('error', () => (span.textContent = text), { once: true });
  span.replaceChildren(image);
}

/** Clicks inside message content: an inline image opens in the viewer, a spoiler header toggles its content. */
export function handleContentClick(event: MouseEvent | KeyboardEvent): void {
  const target = event.target instanceof Element ? event.target : null;
  const preview = target?.closest<HTMLAnchorElement>('.message_inline_image a[href]');
  // A modified click still opens the file in a tab of its own.
  if (preview && event instanceof MouseEvent && event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
    const image = imageOfPreview(preview);
    if (image) {
      event.preventDefault();
      openImage(image);
      return;
    }
  }
  const header = target?.closest('.spoiler-header');
  if (!header) return;
  if (event instanceof KeyboardEvent && event.key !== 'Enter' && event.key !== ' ') return;
  event.preventDefault();
  const block = header.closest('.spoiler-block');
  const open = !block?.classList.contains('spoiler-open');
  block?.classList.toggle('spoiler-open', open);
  header.setAttribute('aria-expanded', String(open));
  block?.querySelector('.spoiler-content')?.setAttribute('aria-hidden', String(!open));
}
