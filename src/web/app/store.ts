/**
 * The page's one source of truth: the snapshot, unread counts, the open view's messages,
 * typing and the connection, each replaced (never mutated) as events arrive. Components
 * subscribe through `useChat` and re-render when any of it changes.
 */
import { useEffect, useState } from 'preact/hooks';
import type { ChatSnapshot, Message } from '../common/types';
import { EventLoop, type ConnectionState } from '../state/event-loop';
import type { MessageEvent, RegisterResponse, ServerEvent, TypingEvent, UpdateMessageEvent } from '../state/events';
import {
  addLocalEcho,
  applyListEvent,
  confirmLocalEcho,
  emptyList,
  failLocalEcho,
  mergePage,
  newestId,
  oldestId,
  replaceWithPage,
  retryLocalEcho,
  dropLocalEcho,
  takesNewMessages,
  type ListedMessage,
  type MessageList,
  type Page,
} from '../state/message-list';
import { matchesNarrow, sameNarrow, sameTopic, toApiNarrow, withoutMe, type Narrow } from '../state/narrow';
import { applySnapshotEvent, buildSnapshot } from '../state/snapshot';
import { followedTopic } from '../state/topic-moves';
import { applyTypingEvent, nextExpiry, type TypingState } from '../state/typing';
import { browserDeps, isSignedOut, UnsentMessage, type StoreDeps } from './store-deps';
import { applyUnreadEvent, isUnread, markedRead, NO_UNREADS, unreadFromRegister, type UnreadState } from '../state/unread';

export interface ChatState {
  snapshot: ChatSnapshot | null;
  unread: UnreadState;
  narrow: Narrow;
  list: MessageList;
  /** Grows each time the list is fetched anew, so the view knows to scroll to its first unread. */
  listVersion: number;
  /** An older page is on its way (the view shows that it is loading). */
  loadingOlder: boolean;
  typing: TypingState;
  connection: ConnectionState;
  /** Most recent message ID per direct conversation key, for the left column's order. */
  recentConversations: ReadonlyMap<string, number>;
  /** Grows with every message event, so the left column refreshes its topics. */
  messageCount: number;
}

const PAGE_SIZE = 50;
const READ_BATCH_MS = 400;

type SendRequest = { type: 'stream'; to: number; topic: string } | { type: 'direct'; to: number[] };

export class ChatStore {
  private state: ChatState;
  private readonly listeners = new Set<() => void>();
  private readonly messageListeners = new Set<(event: MessageEvent) => void>();
  private readonly loop: EventLoop;
  private pendingRead = new Set<number>();
  private readTimer: unknown = null;
  private typingTimer: unknown = null;
  private fetching: 'older' | 'newer' | null = null;
  private localCounter = 0;
  /** What each shown local echo asks the server for, until it is sent or discarded. */
  // Sends not yet taken by the server; a failed one keeps its echo, so that a view opened later
  // shows it again with Retry and Discard instead of losing what was typed.
  private readonly unsent = new Map<string, { params: Record<string, string | number | number[]>; failed?: ListedMessage | undefined }>();

  constructor(
    narrow: Narrow,
    private readonly deps: StoreDeps = browserDeps(),
  ) {
    this.state = {
      snapshot: null,
      unread: NO_UNREADS,
      narrow,
      list: emptyList(narrow),
      listVersion: 0,
      loadingOlder: false,
      typing: [],
      connection: 'connecting',
      recentConversations: new Map(),
      messageCount: 0,
    };
    this.loop = new EventLoop({
      api: deps.api,
      timers: { setTimeout: deps.setTimeout },
      random: deps.random,
      onRegister: (register, kind) => this.registered(register, kind),
      onEvents: (events) => this.applyEvents(events),
      onConnection: (connection) => this.set({ connection }),
      onSignedOut: deps.signIn,
    });
  }

  get current(): ChatState {
    return this.state;
  }

  get queueId(): string {
    return this.loop.queue;
  }

  start(): void {
    void this.loop.run();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Each new message's event, after the state has taken it in (for notifications). */
  onMessage(listener: (event: MessageEvent) => void): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  private set(change: Partial<ChatState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }

  private registered(register: RegisterResponse, kind: 'first' | 'again'): void {
    const snapshot = buildSnapshot(register, this.deps.now() / 1000);
    const recentConversations = new Map<string, number>();
    for (const conversation of register.recent_private_conversations ?? []) {
      const ids = conversation.user_ids.length > 0 ? [...conversation.user_ids].sort((a, b) => a - b) : [snapshot.me.user_id];
      recentConversations.set(ids.join(','), conversation.max_message_id);
    }
    const narrow = withoutMe(this.state.narrow, snapshot.me.user_id);
    if (!sameNarrow(narrow, this.state.narrow)) this.set({ narrow, list: emptyList(narrow) });
    this.set({ snapshot, unread: unreadFromRegister(register.unread_msgs, snapshot.me.user_id), recentConversations });
    // The first time the view opens; after a lost queue the shown messages stay until the re-fetch replaces them.
    void this.fetchAround(kind === 'first' ? 'open' : 'replace');
  }

  private applyEvents(events: readonly ServerEvent[]): void {
    let { snapshot, unread, list, typing, recentConversations, messageCount, narrow } = this.state;
    if (!snapshot) return;
    const now = this.deps.now();
    for (const event of events) {
      const myId = snapshot.me.user_id;
      snapshot = applySnapshotEvent(snapshot, event);
      unread = applyUnreadEvent(unread, event, myId);
      const followed = event.type === 'update_message' ? followedTopic(narrow, event as UpdateMessageEvent) : null;
      if (followed) {
        // The shown messages move with their topic, so the list keeps them under its new name.
        narrow = followed;
        list = { ...list, narrow };
      }
      list = applyListEvent(list, event, myId);
      if (event.type === 'typing') typing = applyTypingEvent(typing, event as TypingEvent, now, myId);
      if (event.type === 'message') {
        messageCount++;
        const message = event['message'] as Message;
        if (Array.isArray(message.display_recipient)) {
          const others = message.display_recipient.map((person) => person.id).filter((id) => id !== myId);
          recentConversations = new Map(recentConversations).set(
            (others.length > 0 ? others.sort((a, b) => a - b) : [myId]).join(','),
            message.id,
          );
        }
        // A message's arrival ends its sender's typing there.
        typing = typing.filter((typist) => typist.userId !== message.sender_id);
      }
    }
    this.set({ snapshot, unread, list, typing, recentConversations, messageCount, narrow });
    for (const event of events) if (event.type === 'message') for (const listener of this.messageListeners) listener(event as MessageEvent);
    this.scheduleTypingExpiry();
    if (events.some((event) => this.movedHere(event))) void this.refreshNewest();
  }

  /** Re-render when the next typing entry expires, so "is typing…" goes away by itself. */
  private scheduleTypingExpiry(): void {
    if (this.typingTimer !== null) this.deps.clearTimeout(this.typingTimer);
    const now = this.deps.now();
    const at = nextExpiry(this.state.typing, now);
    this.typingTimer =
      at === null
        ? null
        : this.deps.setTimeout(
            () => this.set({ typing: this.state.typing.filter((typist) => typist.expiresAt > this.deps.now()) }),
            at - now + 10,
          );
  }

  /** Messages moved into the open stream or topic: their event does not carry them, a fetch does. */
  private movedHere(event: ServerEvent): boolean {
    if (event.type !== 'update_message') return false;
    const move = event as UpdateMessageEvent;
    if (move.new_stream_id === undefined && move.subject === undefined) return false;
    const { narrow, list } = this.state;
    if (narrow.kind !== 'stream' && narrow.kind !== 'topic') return false;
    const streamId = move.new_stream_id ?? move.stream_id;
    if (streamId !== narrow.streamId) return false;
    if (narrow.kind === 'topic' && (move.subject === undefined || !sameTopic(move.subject, narrow.topic))) return false;
    const shown = new Set(list.messages.map((message) => message.id));
    return move.message_ids.some((id) => !shown.has(id));
  }

  private async refreshNewest(): Promise<void> {
    const narrow = this.state.narrow;
    const page = await this.fetchPage(narrow, 'newest', PAGE_SIZE, 0);
    if (page && sameNarrow(narrow, this.state.narrow)) this.set({ list: mergePage(this.state.list, page, 'newer') });
  }

  open(wanted: Narrow): void {
    const narrow = this.state.snapshot ? withoutMe(wanted, this.state.snapshot.me.user_id) : wanted;
    if (sameNarrow(narrow, this.state.narrow) && this.state.snapshot) return;
    this.set({ narrow, list: this.withFailedEchoes(emptyList(narrow)) });
    if (this.state.snapshot) void this.fetchAround('open');
  }

  /** The messages that failed to send and belong in `list`'s view, in the place they had. */
  private withFailedEchoes(list: MessageList): MessageList {
    const me = this.state.snapshot?.me.user_id;
    if (me === undefined) return list;
    const failed = [...this.unsent.values()].flatMap(({ failed }) => (failed && matchesNarrow(list.narrow, failed, me) ? [failed] : []));
    return failed.length === 0 ? list : { ...list, messages: [...list.messages, ...failed] };
  }

  private async fetchPage(narrow: Narrow, anchor: string | number, before: number, after: number): Promise<Page | null> {
    try {
      return await this.deps.api.get<Page>('/messages', {
        anchor: String(anchor),
        num_before: before,
        num_after: after,
        include_anchor: typeof anchor === 'string',
        narrow: toApiNarrow(narrow),
        apply_markdown: true,
        client_extavatar: false,
      });
    } catch (error) {
      if (isSignedOut(error)) this.deps.signIn();
      return null;
    }
  }

  private async fetchAround(mode: 'open' | 'replace'): Promise<void> {
    const narrow = this.state.narrow;
    const page = await this.fetchPage(narrow, 'first_unread', PAGE_SIZE, PAGE_SIZE);
    if (!sameNarrow(narrow, this.state.narrow)) return;
    if (!page) {
      this.set({ list: { ...this.state.list, loading: false } });
      return;
    }
    const list = mode === 'open' ? mergePage(this.state.list, page, 'around') : replaceWithPage(this.state.list, page);
    this.set({ list, listVersion: this.state.listVersion + 1 });
  }

  /** The page before the oldest shown message (scrolled to the top). */
  async loadOlder(): Promise<void> {
    await this.loadMore('older');
  }

  async loadNewer(): Promise<void> {
    await this.loadMore('newer');
  }

  private async loadMore(direction: 'older' | 'newer'): Promise<void> {
    const { list, narrow } = this.state;
    const anchor = direction === 'older' ? oldestId(list) : newestId(list);
    if (this.fetching || list.loading || anchor === undefined || (direction === 'older' ? list.foundOldest : list.foundNewest)) return;
    this.fetching = direction;
    if (direction === 'older') this.set({ loadingOlder: true });
    try {
      const page = await this.fetchPage(narrow, anchor, direction === 'older' ? PAGE_SIZE : 0, direction === 'older' ? 0 : PAGE_SIZE);
      if (page && sameNarrow(narrow, this.state.narrow)) this.set({ list: mergePage(this.state.list, page, direction) });
    } finally {
      this.fetching = null;
      if (direction === 'older') this.set({ loadingOlder: false });
    }
  }

  /** Seen messages: counts drop at once, the server hears in one batch. */
  markRead(ids: readonly number[]): void {
    const unread = ids.filter((id) => isUnread(this.state.unread, id));
    if (unread.length === 0) return;
    for (const id of unread) this.pendingRead.add(id);
    this.set({ unread: markedRead(this.state.unread, unread) });
    this.readTimer ??= this.deps.setTimeout(() => this.flushRead(), READ_BATCH_MS);
  }

  /** The tab is closing: send the read marks still waiting for their batch. */
  flushReadNow(): void {
    if (this.readTimer !== null) this.deps.clearTimeout(this.readTimer);
    this.flushRead();
  }

  private flushRead(): void {
    this.readTimer = null;
    const messages = [...this.pendingRead];
    this.pendingRead = new Set();
    if (messages.length > 0) this.deps.api.post('/messages/flags', { messages, op: 'add', flag: 'read' }).catch(() => undefined);
  }

  /** Sends with local echo: shown at once when it belongs in the open view, confirmed by its event. */
  async send(request: SendRequest, content: string, echoHtml: string): Promise<void> {
    const snapshot = this.state.snapshot;
    if (!snapshot) return;
    const localId = `${this.deps.now()}.${++this.localCounter}`;
    const me = snapshot.me;
    const echo: ListedMessage & { localId: string } = {
      id: Number.MAX_SAFE_INTEGER - this.localCounter,
      localId,
      type: request.type === 'stream' ? 'stream' : 'private',
      sender_id: me.user_id,
      sender_email: me.email,
      sender_full_name: me.full_name,
      avatar_url: me.avatar_url,
      content: echoHtml,
      display_recipient:
        request.type === 'stream'
          ? (snapshot.streams.get(request.to)?.name ?? '')
          : [me.user_id, ...request.to].map((id) => ({
              id,
              email: snapshot.users.get(id)?.email ?? '',
              full_name: snapshot.users.get(id)?.full_name ?? '',
            })),
      subject: request.type === 'stream' ? request.topic : '',
      timestamp: Math.floor(this.deps.now() / 1000),
      flags: ['read'],
      reactions: [],
      is_me_message: false,
      ...(request.type === 'stream' ? { stream_id: request.to } : {}),
    };
    const shown = matchesNarrow(this.state.list.narrow, echo, me.user_id) && takesNewMessages(this.state.list);
    if (shown) this.set({ list: addLocalEcho(this.state.list, echo) });
    const params =
      request.type === 'stream'
        ? { type: 'stream', to: request.to, topic: request.topic, content }
        : { type: 'direct', to: request.to, content };
    this.unsent.set(localId, { params });
    await this.deliver(localId, shown);
  }

  /** Sends a message that failed again; it moves to the end, as the newest message. */
  async retry(localId: string): Promise<void> {
    if (!this.unsent.has(localId)) return;
    this.set({ list: retryLocalEcho(this.state.list, localId, Math.floor(this.deps.now() / 1000)) });
    await this.deliver(localId, true).catch(() => undefined);
  }

  discard(localId: string): void {
    this.unsent.delete(localId);
    this.set({ list: dropLocalEcho(this.state.list, localId) });
  }

  private async deliver(localId: string, shown: boolean): Promise<void> {
    const pending = this.unsent.get(localId);
    if (!pending) return;
    try {
      const sent = await this.deps.api.post<{ id: number }>('/messages', {
        ...pending.params,
        queue_id: this.loop.queue,
        local_id: localId,
      });
      this.unsent.delete(localId);
      // The server records /json sends as client `website`, so my own copy is already read.
      this.set({ list: confirmLocalEcho(this.state.list, localId, sent.id) });
    } catch (error) {
      if (isSignedOut(error)) this.deps.signIn();
      this.set({ list: failLocalEcho(this.state.list, localId) });
      if (!shown) this.unsent.delete(localId);
      else pending.failed = this.state.list.messages.find((message) => message.localId === localId);
      throw shown ? new UnsentMessage(error) : error;
    }
  }
}

/** The store's state in a component, re-rendering on every change. */
export function useChat(store: ChatStore): ChatState {
  const [state, setState] = useState(store.current);
  useEffect(() => {
    setState(store.current);
    return store.subscribe(() => setState(store.current));
  }, [store]);
  return state;
}
