import type { Realm } from '../realm';
import { renderPlainDescription } from './render';

export interface RenderedMessage {
  html: string;
  isMeMessage: boolean;
  mentionedUserIds: ReadonlySet<number>;
  wildcardMentioned: boolean;
  topicLinks: { text: string; url: string }[];
}

/** Renders a message's content in the context of its realm (users, streams, linkifiers). */
export function renderMessage(_realm: Realm, content: string, _topic: string): RenderedMessage {
  return {
    html: renderPlainDescription(content),
    isMeMessage: content.startsWith('/me '),
    mentionedUserIds: new Set(),
    wildcardMentioned: false,
    topicLinks: [],
  };
}
