/**
 * User mentions, user-group mentions and stream/topic links (api-notes §g). A mention or link
 * whose target is unknown is not one: the text falls through to the other rules, so
 * `@**Nobody**` renders as `@<strong>Nobody</strong>`.
 */
import type { Token, TokenizerAndRendererExtension, Tokens } from 'marked';
import { escapeAttribute, escapeLiteral } from './escape';
import { activeRenderState, type RenderState } from './render-state';
import { isToken, precedingChar, type GroupMentionToken, type StreamLinkToken, type UserMentionToken, type WildcardName } from './tokens';
import { streamNarrowUrl, topicNarrowUrl } from './url';

/** api-notes §g: the `@` (or `#`) starts the text or follows whitespace, ' " ( { [ / or < */
const ALLOWED_BEFORE_MENTION = /[\s'"({[/<]/u;

function mayMentionAfter(previous: string): boolean {
  return previous === '' || ALLOWED_BEFORE_MENTION.test(previous);
}

const USER_MENTION = /^@(_?)\*\*([^*]+)\*\*/;
const GROUP_MENTION = /^@(_?)\*([^*]+)\*/;
const NAME_WITH_ID = /^(.+)?\|(\d+)$/s;
const WILDCARDS: ReadonlySet<string> = new Set<WildcardName>(['all', 'everyone', 'stream', 'topic']);

function mentionTarget(text: string, state: RenderState): UserMentionToken['target'] | null {
  if (WILDCARDS.has(text)) return { kind: 'wildcard', name: text as WildcardName };
  const withId = NAME_WITH_ID.exec(text);
  if (withId !== null) {
    // @**|id** names the user by id; @**Name|id** must also spell that user's name exactly.
    const user = state.userById(Number(withId[2]));
    if (user === undefined || (withId[1] !== undefined && withId[1] !== user.full_name)) return null;
    return { kind: 'user', userId: user.id, fullName: user.full_name };
  }
  const user = state.userByName(text);
  return user === undefined ? null : { kind: 'user', userId: user.id, fullName: user.full_name };
}

function tokenizeMention(src: string, tokens: Token[]): UserMentionToken | GroupMentionToken | undefined {
  if (src[0] !== '@' || !mayMentionAfter(precedingChar(tokens))) return undefined;
  const state = activeRenderState();
  const user = USER_MENTION.exec(src);
  if (user !== null) {
    const target = mentionTarget(user[2] ?? '', state);
    return target === null ? undefined : { type: 'userMention', raw: user[0], silent: user[1] === '_', target };
  }
  const group = GROUP_MENTION.exec(src);
  if (group !== null) {
    const found = state.groupByName(group[2] ?? '');
    if (found === undefined) return undefined;
    return { type: 'groupMention', raw: group[0], silent: group[1] === '_', groupId: found.id, groupName: found.name };
  }
  return undefined;
}

function renderMention(token: Tokens.Generic): string | false {
  if (isToken(token, 'userMention')) {
    const silent = token.silent ? ' silent' : '';
    const at = token.silent ? '' : '@';
    const { target } = token;
    const [id, name] = target.kind === 'user' ? [String(target.userId), target.fullName] : ['*', target.name];
    return `<span class="user-mention${silent}" data-user-id="${id}">${at}${escapeLiteral(name)}</span>`;
  }
  if (isToken(token, 'groupMention')) {
    const silent = token.silent ? ' silent' : '';
    const at = token.silent ? '' : '@';
    return `<span class="user-group-mention${silent}" data-user-group-id="${token.groupId}">${at}${escapeLiteral(token.groupName)}</span>`;
  }
  return false;
}

export const mentionExtension: TokenizerAndRendererExtension = {
  name: 'userMention',
  level: 'inline',
  tokenizer: (src, tokens) => tokenizeMention(src, tokens),
  renderer: renderMention,
};

/** Same renderer, registered under the group token's name. */
export const groupMentionRenderer: TokenizerAndRendererExtension = { name: 'groupMention', renderer: renderMention };

const TOPIC_LINK = /^#\*\*([^*>]+)>([^*]+)\*\*/;
const STREAM_LINK = /^#\*\*([^*]+)\*\*/;

function tokenizeStreamLink(src: string, tokens: Token[]): StreamLinkToken | undefined {
  if (!src.startsWith('#**') || !mayMentionAfter(precedingChar(tokens))) return undefined;
  const state = activeRenderState();
  const topicLink = TOPIC_LINK.exec(src);
  if (topicLink !== null) {
    const stream = state.streamByName(topicLink[1] ?? '');
    if (stream !== undefined) {
      return { type: 'streamLink', raw: topicLink[0], streamId: stream.id, streamName: stream.name, topic: topicLink[2] ?? '' };
    }
  }
  const streamLink = STREAM_LINK.exec(src);
  if (streamLink === null) return undefined;
  const stream = state.streamByName(streamLink[1] ?? '');
  if (stream === undefined) return undefined;
  return { type: 'streamLink', raw: streamLink[0], streamId: stream.id, streamName: stream.name, topic: null };
}

function renderStreamLink(token: Tokens.Generic): string | false {
  if (!isToken(token, 'streamLink')) return false;
  const { streamId, streamName, topic } = token;
  if (topic === null) {
    const href = escapeAttribute(streamNarrowUrl(streamId, streamName));
    return `<a class="stream" data-stream-id="${streamId}" href="${href}">#${escapeLiteral(streamName)}</a>`;
  }
  const href = escapeAttribute(topicNarrowUrl(streamId, streamName, topic));
  return `<a class="stream-topic" data-stream-id="${streamId}" href="${href}">#${escapeLiteral(streamName)} &gt; ${escapeLiteral(topic)}</a>`;
}

export const streamLinkExtension: TokenizerAndRendererExtension = {
  name: 'streamLink',
  level: 'inline',
  tokenizer: (src, tokens) => tokenizeStreamLink(src, tokens),
  renderer: renderStreamLink,
};
