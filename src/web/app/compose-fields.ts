/**
 * What the compose box's recipient fields hold, and where they come from: the view opened, or
 * the message last clicked (api-notes has no rule here; people expect a reply to go where the
 * message they pointed at is). DOM-free.
 */
import type { ChatSnapshot } from '../common/types';
import type { ListedMessage } from '../state/message-list';
import { dmPartners, type Narrow } from '../state/narrow';
import type { ComposeMode } from './recipient-rules';

export interface Fields {
  mode: ComposeMode;
  stream: string;
  topic: string;
  to: string;
}

export const NO_FIELDS: Fields = { mode: 'stream', stream: '', topic: '', to: '' };

function emailsOf(userIds: readonly number[], snapshot: ChatSnapshot): string {
  return userIds
    .map((id) => snapshot.users.get(id)?.email ?? '')
    .filter(Boolean)
    .join(', ');
}

/** A view's conversation; a view of many conversations (all, search, starred, mentions) starts empty. */
export function fieldsFor(narrow: Narrow, snapshot: ChatSnapshot, current: Fields): Fields {
  const streamName = (id: number) => snapshot.streams.get(id)?.name ?? '';
  switch (narrow.kind) {
    case 'stream':
      return {
        ...NO_FIELDS,
        stream: streamName(narrow.streamId),
        // Back in the same stream, the topic typed stays.
        topic: current.mode === 'stream' && current.stream === streamName(narrow.streamId) ? current.topic : '',
      };
    case 'topic':
      return { ...NO_FIELDS, stream: streamName(narrow.streamId), topic: narrow.topic };
    case 'dm':
      return { ...NO_FIELDS, mode: 'direct', to: emailsOf(narrow.userIds, snapshot) };
    default:
      return NO_FIELDS;
  }
}

/** The conversation of a message: its stream and topic, or its people. */
export function fieldsOfMessage(message: ListedMessage, snapshot: ChatSnapshot): Fields {
  if (Array.isArray(message.display_recipient)) {
    return { ...NO_FIELDS, mode: 'direct', to: emailsOf(dmPartners(message.display_recipient, snapshot.me.user_id), snapshot) };
  }
  const stream = message.stream_id === undefined ? undefined : snapshot.streams.get(message.stream_id);
  return { ...NO_FIELDS, stream: stream?.name ?? message.display_recipient, topic: message.subject };
}
