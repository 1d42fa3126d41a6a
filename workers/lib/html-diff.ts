import { diffArrays } from 'diff';

/*
 * The `content_html_diff` of GET /messages/{message_id}/history (openapi get-message-history):
 * the new rendering with the words inserted since the previous one marked
 * `<span class="highlight_text_inserted">` and the words deleted marked
 * `<span class="highlight_text_deleted">`, the whole inside a `<div>`, as the public server's
 * highlight_html_differences marks them. Words are diffed, not characters, as its HTML differ
 * does; tags are kept from the new rendering only, so the result stays well-formed HTML.
 */

const INSERTED_CLASS = 'highlight_text_inserted';
const DELETED_CLASS = 'highlight_text_deleted';

// A tag, a word with the whitespace after it, or whitespace before a tag or at the start.
const TOKEN = /<[^>]*>|[^<\s]+\s*|\s+/g;

function tokenize(html: string): string[] {
  return html.match(TOKEN) ?? [];
}

const isTag = (token: string): boolean => token.startsWith('<');

/**
 * The tokens of one inserted or deleted run, each stretch of words in one span (whitespace
 * around it outside). Inserted tags stay; deleted tags are left out.
 */
function markRun(tokens: readonly string[], className: string, deleted: boolean): string {
  let html = '';
  let text = '';
  const closeSpan = (): void => {
    const words = text.trim();
    if (words === '') {
      html += text;
    } else {
      const start = text.indexOf(words);
      html += `${text.slice(0, start)}<span class="${className}">${words}</span>${text.slice(start + words.length)}`;
    }
    text = '';
  };
  for (const token of tokens) {
    if (!isTag(token)) {
      text += token;
      continue;
    }
    closeSpan();
    if (!deleted) html += token;
  }
  closeSpan();
  return html;
}

/** `after` with what changed since `before` marked; both are rendered message HTML. */
export function highlightHtmlDifferences(before: string, after: string): string {
  const oldTokens = tokenize(before);
  const newTokens = tokenize(after);
  // Words match whatever whitespace follows them ("three" at the end, "three " inside).
  const changes = diffArrays(oldTokens, newTokens, { comparator: (a, b) => a.trimEnd() === b.trimEnd() });
  let html = '';
  let oldAt = 0;
  let newAt = 0;
  const take = (tokens: readonly string[], from: number, count: number): string[] => tokens.slice(from, from + count);
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i];
    if (change === undefined) continue;
    const next = changes[i + 1];
    if (change.removed && next?.added) {
      // A replacement: the new words first, then the old ones, apart.
      const inserted = markRun(take(newTokens, newAt, next.count), INSERTED_CLASS, false);
      const removed = markRun(take(oldTokens, oldAt, change.count), DELETED_CLASS, true);
      html += inserted + (removed !== '' && inserted !== '' && !/\s$/.test(inserted) ? ' ' : '') + removed;
      oldAt += change.count;
      newAt += next.count;
      i++;
    } else if (change.added) {
      html += markRun(take(newTokens, newAt, change.count), INSERTED_CLASS, false);
      newAt += change.count;
    } else if (change.removed) {
      html += markRun(take(oldTokens, oldAt, change.count), DELETED_CLASS, true);
      oldAt += change.count;
    } else {
      // Unchanged: the new rendering's own tokens (and whitespace).
      html += take(newTokens, newAt, change.count).join('');
      oldAt += change.count;
      newAt += change.count;
    }
  }
  return `<div>${html}</div>`;
}
