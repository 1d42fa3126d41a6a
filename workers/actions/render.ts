/**
 * Rendering of user-written Markdown. Until the dialect renderer lands this is the plain
 * form: HTML-escaped text, paragraphs on blank lines and <br> on single newlines.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] as string);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function renderPlainDescription(source: string): string {
  const paragraphs = source
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>\n')}</p>`).join('\n');
}
