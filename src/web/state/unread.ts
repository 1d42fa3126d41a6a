/**
 * Unread messages: each unread message ID with where it lives, so the counts by stream, by
 * topic and by direct conversation follow from one map, and moves, deletions and flag changes
 * update that map alone. Immutable: every change returns a new state.
 */
import type { DeleteMessageEvent, FlagsEvent, MessageEvent, ServerEvent, UnreadMessages, UpdateMessageEvent } from './events';
import { dmKey, dmPartners, messageDmKey, sameTopic } from './narrow';

export type UnreadPlace = { kind: 'stream'; streamId: number; topic: string } | { kind: 'dm'; key: string };

export interface UnreadState {
  readonly messages: ReadonlyMap<number, UnreadPlace>;
  readonly mentions: ReadonlySet<number>;
}

export const NO_UNREADS: UnreadState = { messages: new Map(), mentions: new Set() };

export function unreadFromRegister(unread: UnreadMessages | undefined, myId: number): UnreadState {
  if (!unread) return NO_UNREADS;
  const messages = new Map<number, UnreadPlace>();
  for (const entry of unread.streams)
    for (const id of entry.unread_message_ids) messages.set(id, { kind: 'stream', streamId: entry.stream_id, topic: entry.topic });
  for (const entry of unread.pms) for (const id of entry.message_ids) messages.set(id, { kind: 'dm', key: dmKey([entry.other_user_id]) });
  for (const entry of unread.huddles) {
    const key = dmKey(
      dmPartners(
        entry.user_ids_string.split(',').map((id) => ({ id: Number(id), email: '', full_name: '' })),
        myId,
      ),
    );
    for (const id of entry.message_ids) messages.set(id, { kind: 'dm', key });
  }
  return { messages, mentions: new Set(unread.mentions.filter((id) => messages.has(id))) };
}

function without(state: UnreadState, ids: readonly number[]): UnreadState {
  if (!ids.some((id) => state.messages.has(id) || state.mentions.has(id))) return state;
  const messages = new Map(state.messages);
  const mentions = new Set(state.mentions);
  for (const id of ids) {
    messages.delete(id);
    mentions.delete(id);
  }
  return { messages, mentions };
}

function applyMessage(state: UnreadState, event: MessageEvent, myId: number): UnreadState {
  const message = event.message;
  if (event.flags.includes('read') || message.sender_id === myId) return state;
  const place: UnreadPlace | null =
    message.type === 'stream' && message.stream_id !== undefined
      ? { kind: 'stream', streamId: message.stream_id, topic: message.subject }
      : (() => {
          const key = messageDmKey(message, myId);
          return key === null ? null : { kind: 'dm' as const, key };
        })();
  if (!place) return state;
  const messages = new Map(state.messages).set(message.id, place);
  const mentioned = event.flags.includes('mentioned') || event.flags.includes('wildcard_mentioned');
  return { messages, mentions: mentioned ? new Set(state.mentions).add(message.id) : state.mentions };
}

function applyFlags(state: UnreadState, event: FlagsEvent, myId: number): UnreadState {
  if (event.flag !== 'read') return state;
  if (event.op === 'add') return event.all ? NO_UNREADS : without(state, event.messages);
  const messages = new Map(state.messages);
  const mentions = new Set(state.mentions);
  for (const id of event.messages) {
    const details = event.message_details?.[String(id)];
    if (!details) continue;
    if (details.type === 'stream' && details.stream_id !== undefined)
      messages.set(id, { kind: 'stream', streamId: details.stream_id, topic: details.topic ?? '' });
    else
      messages.set(id, {
        kind: 'dm',
        key: dmKey(
          dmPartners(
            (details.user_ids ?? []).map((userId) => ({ id: userId, email: '', full_name: '' })),
            myId,
          ),
        ),
      });
    if (details.mentioned) mentions.add(id);
  }
  return { messages, mentions };
}

function applyMove(state: UnreadState, event: UpdateMessageEvent): UnreadState {
  if (event.subject === undefined && event.new_stream_id === undefined) return state;
  let messages: Map<number, UnreadPlace> | null = null;
  for (const id of event.message_ids) {
    const place = state.messages.get(id);
    if (place?.kind !== 'stream') continue;
    messages ??= new Map(state.messages);
    messages.set(id, { kind: 'stream', streamId: event.new_stream_id ?? place.streamId, topic: event.subject ?? place.topic });
  }
  return messages ? { ...state, messages } : state;
}

export function applyUnreadEvent(state: UnreadState, event: ServerEvent, myId: number): UnreadState {
  switch (event.type) {
    case 'message':
      return applyMessage(state, event as MessageEvent, myId);
    case 'update_message_flags':
      return applyFlags(state, event as FlagsEvent, myId);
    case 'delete_message': {
      const deletion = event as DeleteMessageEvent;
      return without(state, deletion.message_ids ?? (deletion.message_id === undefined ? [] : [deletion.message_id]));
    }
    case 'update_message':
      return applyMove(state, event as UpdateMessageEvent);
    default:
      return state;
  }
}

/** Marked read here before the server's event arrives, so counts drop at once. */
export function markedRead(state: UnreadState, ids: readonly number[]): UnreadState {
  return without(state, ids);
}

export function unreadByStream(state: UnreadState): Map<number, number> {
  const counts = new Map<number, number>();
  for (const place of state.messages.values())
    if (place.kind === 'stream') counts.set(place.streamId, (counts.get(place.streamId) ?? 0) + 1);
  return counts;
}

/** Unread counts of one stream's topics, keyed by the topic as the first unread message spells it. */
export function unreadByTopic(state: UnreadState, streamId: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const place of state.messages.values()) {
    if (place.kind !== 'stream' || place.streamId !== streamId) continue;
    const known = [...counts.keys()].find((topic) => sameTopic(topic, place.topic)) ?? place.topic;
    counts.set(known, (counts.get(known) ?? 0) + 1);
  }
  return counts;
}

export function topicUnreadCount(state: UnreadState, streamId: number, topic: string): number {
  let count = 0;
  for (const place of state.messages.values())
    if (place.kind === 'stream' && place.streamId === streamId && sameTopic(place.topic, topic)) count++;
  return count;
}

export function unreadByConversation(state: UnreadState): Map<string, number> {
  const counts = new Map<string, number>();
  for (const place of state.messages.values()) if (place.kind === 'dm') counts.set(place.key, (counts.get(place.key) ?? 0) + 1);
  return counts;
}

export function isUnread(state: UnreadState, messageId: number): boolean {
  return state.messages.has(messageId);
}
