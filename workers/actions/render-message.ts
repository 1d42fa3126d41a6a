import { renderMarkdown, topicLinks, type MarkdownContext, type RenderResult } from '../markdown';
import { cacheVersion } from '../queries/cache-version';
import { defaultCodeBlockLanguage } from '../queries/realm-settings';
import { renderContextFor } from '../queries/render-context';
import { booleanSetting, type UserRow } from '../queries/users';
import type { Realm } from '../realm';

export interface RenderedMessage {
  html: string;
  isMeMessage: boolean;
  mentionedUserIds: ReadonlySet<number>;
  wildcardMentioned: boolean;
  alertWordUserIds: ReadonlySet<number>;
  topicLinks: { text: string; url: string }[];
  // "/user_uploads/..." paths the content links; sending or editing claims them
  uploadedFilePaths: readonly string[];
}

/**
 * Renders a message's content and topic in the context of its realm (api-notes §g), as
 * written by `author` (whose `translate_emoticons` setting applies).
 */
export async function renderMessage(realm: Realm, author: UserRow, content: string, topic: string): Promise<RenderedMessage> {
  const held = realm.renderHold.wait();
  if (held) await held;
  const { result, topicLinks } = await realm.renderer.render(
    {
      realm: realm.name,
      version: cacheVersion(realm),
      source: content,
      topic,
      translateEmoticons: booleanSetting(author, 'translate_emoticons', false),
      defaultCodeBlockLanguage: defaultCodeBlockLanguage(realm),
    },
    () => renderContextFor(realm),
  );
  return renderedMessage(result, topicLinks);
}

/** Renders on this thread, inside a transaction: for the server's own short notices. */
export function renderMessageNow(realm: Realm, content: string, topic: string): RenderedMessage {
  const context = realmRenderContext(realm);
  return renderedMessage(renderMarkdown(content, context), topic === '' ? [] : topicLinks(topic, context));
}

function renderedMessage(result: RenderResult, links: { text: string; url: string }[]): RenderedMessage {
  return {
    html: result.html,
    isMeMessage: result.isMeMessage,
    mentionedUserIds: new Set(result.mentionedUserIds),
    wildcardMentioned: result.wildcardMentioned,
    alertWordUserIds: new Set(result.alertWordUserIds),
    topicLinks: links,
    uploadedFilePaths: result.uploadedFilePaths,
  };
}

/** Stream descriptions are Markdown too (SPEC Stream.rendered_description). */
export function renderDescription(realm: Realm, description: string): string {
  return description === '' ? '' : renderMarkdown(description, realmRenderContext(realm)).html;
}

/** The cached context with the realm settings that apply to every render. */
function realmRenderContext(realm: Realm): MarkdownContext {
  const language = defaultCodeBlockLanguage(realm);
  const context = renderContextFor(realm);
  return language === '' ? context : { ...context, defaultCodeBlockLanguage: language };
}
