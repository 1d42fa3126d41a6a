import { renderMarkdown, topicLinks } from '../markdown';
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
}

/**
 * Renders a message's content and topic in the context of its realm (api-notes §g), as
 * written by `author` (whose `translate_emoticons` setting applies).
 */
export function renderMessage(realm: Realm, author: UserRow, content: string, topic: string): RenderedMessage {
  const realmContext = renderContextFor(realm);
  const translateEmoticons = booleanSetting(author, 'translate_emoticons', false);
  const context = translateEmoticons ? { ...realmContext, translateEmoticons } : realmContext;
  const result = renderMarkdown(content, context);
  return {
    html: result.html,
    isMeMessage: result.isMeMessage,
    mentionedUserIds: new Set(result.mentionedUserIds),
    wildcardMentioned: result.wildcardMentioned,
    alertWordUserIds: new Set(result.alertWordUserIds),
    topicLinks: topic === '' ? [] : topicLinks(topic, context),
  };
}

/** Stream descriptions are Markdown too (SPEC Stream.rendered_description). */
export function renderDescription(realm: Realm, description: string): string {
  return description === '' ? '' : renderMarkdown(description, renderContextFor(realm)).html;
}
