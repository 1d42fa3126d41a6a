/**
 * Message HTML from the server, shown the one way the page shows it everywhere (a message in
 * the feed, the compose preview, a version in the edit history): inserted as it is, since the
 * server renders and sanitizes every message, then given what ./message-content adds.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import { enhanceContent, handleContentClick } from './message-content';

interface MessageHtmlProps {
  html: string;
  class: string;
  /** Whose mentions are highlighted; undefined before the page has loaded, when nothing is added. */
  myId: number | undefined;
  emojiset: unknown;
  label?: string | undefined;
}

export function MessageHtml({ html, class: className, myId, emojiset, label }: MessageHtmlProps) {
  const root = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (root.current && myId !== undefined) enhanceContent(root.current, myId, emojiset);
  }, [html, myId, emojiset]);
  return (
    <div
      ref={root}
      class={className}
      aria-label={label}
      dangerouslySetInnerHTML={{ __html: html }}
      onClick={handleContentClick}
      onKeyDown={handleContentClick}
    />
  );
}
