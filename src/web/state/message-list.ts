/**
 * The open view's messages: sorted by ID, with how far the server has been read in each
 * direction, pages merged as they arrive, live events applied, and local echoes (a message
 * shown the moment it is sent, replaced by the server's copy when its event comes back).
 */
import type { Message, Reaction } from '../common/types';
import type { DeleteMessageEvent, FlagsEvent, MessageEvent, ReactionEvent, ServerEvent, UpdateMessageEvent } from './events';
import { matchesNarrow, type Narrow } from './narrow';

export interface ListedMessage extends Message {
  /** Set on a local echo until the server's copy replaces it. */
  localId?: string;
  sendState?: 'sending' | 'failed';
  /** A local echo's place: after the newest server message shown when it was written (or retried). */
  afterId?: number;
}

export interface MessageList {
  readonly narrow: Narrow;
  /** Server messages by ascending ID, local echoes among them by time, in the order they were sent. */
  readonly messages: readonly ListedMessage[];
  readonly foundOldest: boolean;
  readonly foundNewest: boolean;
  /** Nothing fetched yet. */
  readonly loading: boolean;
}

export function emptyList(narrow: Narrow): MessageList {
  return { narrow, messages: [], foundOldest: false, foundNewest: false, loading: true };
}

/** Where an echo sorts: one being sent is the newest; one that failed stays where it was written. */
function echoPlace(echo: ListedMessage): number {
  return echo.sendState === 'failed' ? (echo.afterId ?? Number.MAX_SAFE_INTEGER) : Number.MAX_SAFE_INTEGER;
}

/** Server messages by ID, local echoes placed by `echoPlace`, in the order they were sent. */
function byId(a: ListedMessage, b: ListedMessage): number {
  const aLocal = a.localId !== undefined;
  const bLocal = b.localId !== undefined;
  if (aLocal && bLocal) return 0;
  if (aLocal) return b.id > echoPlace(a) ? -1 : 1;
  if (bLocal) return a.id > echoPlace(b) ? 1 : -1;
  return a.id - b.id;
}

export interface Page {
  messages: readonly Message[];
  found_oldest: boolean;
  found_newest: boolean;
}

/** A GET /messages answer merged in: older pages, newer pages, or a first page alike. */
export function mergePage(list: MessageList, page: Page, direction: 'older' | 'newer' | 'around'): MessageList {
  const merged = new Map<number, ListedMessage>();
  for (const message of list.messages) if (message.localId === undefined) merged.set(message.id, message);
  for (const message of page.messages) merged.set(message.id, message);
  // An echo whose message the page already brings is done (its event went to a queue since lost).
  const echoes = list.messages.filter((message) => message.localId !== undefined && !merged.has(message.id));
  return {
    ...list,
    messages: [...merged.values(), ...echoes].sort(byId),
    foundOldest: direction === 'newer' ? list.foundOldest : page.found_oldest,
    foundNewest: direction === 'older' ? list.foundNewest : page.found_newest,
    loading: false,
  };
}

/** The list re-fetched after a re-register: the new page replaces what was shown. */
export function replaceWithPage(list: MessageList, page: Page): MessageList {
  return mergePage({ ...list, messages: list.messages.filter((message) => message.localId !== undefined) }, page, 'around');
}

export function oldestId(list: MessageList): number | undefined {
  return list.messages.find((message) => message.localId === undefined)?.id;
}

export function newestId(list: MessageList): number | undefined {
  return list.messages.filter((message) => message.localId === undefined).at(-1)?.id;
}

/** After the newest message shown; while the first page is still coming, after all it brings. */
function placeOfNewEcho(list: MessageList): number {
  return list.loading ? Number.MAX_SAFE_INTEGER : (newestId(list) ?? 0);
}

export function addLocalEcho(list: MessageList, echo: ListedMessage & { localId: string }): MessageList {
  return { ...list, messages: [...list.messages, { ...echo, sendState: 'sending', afterId: placeOfNewEcho(list) }] };
}

/** The server took the message: the echo learns its ID, so a page that brings it replaces it. */
export function confirmLocalEcho(list: MessageList, localId: string, id: number): MessageList {
  return mapMessages(list, (message) => (message.localId === localId ? { ...message, id } : message));
}

export function failLocalEcho(list: MessageList, localId: string): MessageList {
  const failed = mapMessages(list, (message) => (message.localId === localId ? { ...message, sendState: 'failed' as const } : message));
  return failed === list ? list : { ...failed, messages: [...failed.messages].sort(byId) };
}

/** Sent again: `sending` once more, and placed as the newest message. */
export function retryLocalEcho(list: MessageList, localId: string, timestamp: number): MessageList {
  const afterId = placeOfNewEcho(list);
  const retried = mapMessages(list, (message) =>
    message.localId === localId ? { ...message, sendState: 'sending' as const, timestamp, afterId } : message,
  );
  return { ...retried, messages: [...retried.messages].sort(byId) };
}

export function dropLocalEcho(list: MessageList, localId: string): MessageList {
  return { ...list, messages: list.messages.filter((message) => message.localId !== localId) };
}

function mapMessages(list: MessageList, change: (message: ListedMessage) => ListedMessage): MessageList {
  let changed = false;
  const messages = list.messages.map((message) => {
    const next = change(message);
    if (next !== message) changed = true;
    return next;
  });
  return changed ? { ...list, messages } : list;
}

/**
 * A new message of the view's narrow belongs at its end now: the view reaches the newest
 * messages, or its first page is still coming (and merges with it), or it holds no message
 * from the server at all (its fetch failed): a new message is then the newest there is, and
 * leaves no gap. Otherwise the view stops short of the newest, and a later page brings it.
 */
export function takesNewMessages(list: MessageList): boolean {
  return list.foundNewest || list.loading || oldestId(list) === undefined;
}

function applyMessage(list: MessageList, event: MessageEvent, myId: number): MessageList {
  const message: ListedMessage = { ...event.message, flags: event.flags, reactions: event.message.reactions ?? [] };
  const echoIndex = list.messages.findIndex(
    (entry) => entry.localId !== undefined && (entry.localId === event.local_message_id || entry.id === message.id),
  );
  const rest = echoIndex === -1 ? list.messages : list.messages.filter((_, index) => index !== echoIndex);
  if (!matchesNarrow(list.narrow, message, myId) || !takesNewMessages(list) || rest.some((entry) => entry.id === message.id)) {
    return echoIndex === -1 ? list : { ...list, messages: rest };
  }
  // Once loaded, the view ends with this message: the newest end is reached (older pages load as usual).
  return { ...list, messages: [...rest, message].sort(byId), foundNewest: list.loading ? list.foundNewest : true };
}

function applyUpdate(list: MessageList, event: UpdateMessageEvent, myId: number): MessageList {
  const affected = new Set(event.message_ids ?? [event.message_id]);
  const updated = mapMessages(list, (message) => {
    if (message.localId !== undefined || !affected.has(message.id)) return message;
    const next: ListedMessage = { ...message };
    if (message.id === event.message_id && event.rendered_content !== undefined) {
      next.content = event.rendered_content;
      // The search's highlights were of the old text.
      delete next.match_content;
      if (event.is_me_message !== undefined) next.is_me_message = event.is_me_message;
    }
    if (event.subject !== undefined) {
      next.subject = event.subject;
      delete next.match_subject;
    }
    if (event.new_stream_id !== undefined) next.stream_id = event.new_stream_id;
    if (!event.rendering_only) next.last_edit_timestamp = event.edit_timestamp;
    return next;
  });
  // A message moved out of a stream or topic view leaves it.
  return {
    ...updated,
    messages: updated.messages.filter(
      (message) =>
        message.localId !== undefined ||
        !affected.has(message.id) ||
        matchesNarrow(list.narrow, message, myId) ||
        list.narrow.kind === 'search',
    ),
  };
}

function applyFlags(list: MessageList, event: FlagsEvent): MessageList {
  const ids = new Set(event.messages);
  return mapMessages(list, (message) => {
    if (message.localId !== undefined || !(event.all || ids.has(message.id))) return message;
    const has = message.flags.includes(event.flag);
    if (event.op === 'add' && !has) return { ...message, flags: [...message.flags, event.flag] };
    if (event.op === 'remove' && has) return { ...message, flags: message.flags.filter((flag) => flag !== event.flag) };
    return message;
  });
}

function sameReaction(a: Reaction, event: ReactionEvent): boolean {
  return a.user_id === event.user_id && a.emoji_code === event.emoji_code && a.reaction_type === event.reaction_type;
}

function applyReaction(list: MessageList, event: ReactionEvent): MessageList {
  return mapMessages(list, (message) => {
    if (message.id !== event.message_id || message.localId !== undefined) return message;
    const present = message.reactions.some((reaction) => sameReaction(reaction, event));
    if (event.op === 'add' && !present) {
      const reaction: Reaction = {
        emoji_name: event.emoji_name,
        emoji_code: event.emoji_code,
        reaction_type: event.reaction_type,
        user_id: event.user_id,
      };
      return { ...message, reactions: [...message.reactions, reaction] };
    }
    if (event.op === 'remove' && present)
      return { ...message, reactions: message.reactions.filter((reaction) => !sameReaction(reaction, event)) };
    return message;
  });
}

export function applyListEvent(list: MessageList, event: ServerEvent, myId: number): MessageList {
  switch (event.type) {
    case 'message':
      return applyMessage(list, event as MessageEvent, myId);
    case 'update_message':
      return applyUpdate(list, event as UpdateMessageEvent, myId);
    case 'update_message_flags':
      return applyFlags(list, event as FlagsEvent);
    case 'delete_message': {
      const deletion = event as DeleteMessageEvent;
      const ids = new Set(deletion.message_ids ?? (deletion.message_id === undefined ? [] : [deletion.message_id]));
      const messages = list.messages.filter((message) => message.localId !== undefined || !ids.has(message.id));
      return messages.length === list.messages.length ? list : { ...list, messages };
    }
    case 'reaction':
      return applyReaction(list, event as ReactionEvent);
    default:
      return list;
  }
}
