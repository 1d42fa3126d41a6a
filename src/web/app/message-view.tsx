/**
 * The open view's messages as a feed: date separators, a stream+topic header whenever the
 * conversation changes, the sender once per run. Scrolling to the top loads older messages
 * (keeping what was on screen in place), the view opens at the first unread, and messages seen
 * while the window has focus are marked read.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import type { ChatSnapshot } from '../common/types';
import type { ListedMessage } from '../state/message-list';
import { dmPartners, sameTopic, toHash } from '../state/narrow';
import { isUnread } from '../state/unread';
import { MessageItem } from './message-item';
import type { ReplyRequests } from './reply';
import type { ChatState, ChatStore } from './store';

function dayOf(timestamp: number): string {
  return new Date(timestamp * 1000).toDateString();
}

function conversationOf(message: ListedMessage): string {
  return message.type === 'stream'
    ? `s:${message.stream_id}:${message.subject.toLowerCase()}`
    : `d:${
        Array.isArray(message.display_recipient)
          ? message.display_recipient
              .map((person) => person.id)
              .sort((a, b) => a - b)
              .join(',')
          : ''
      }`;
}

function RecipientHeader({ message, snapshot }: { message: ListedMessage; snapshot: ChatSnapshot }) {
  if (message.type === 'stream' && message.stream_id !== undefined) {
    const name =
      snapshot.streams.get(message.stream_id)?.name ?? (typeof message.display_recipient === 'string' ? message.display_recipient : '');
    return (
      <div class="recipient-header">
        <a href={toHash({ kind: 'stream', streamId: message.stream_id })}># {name}</a>
        <span aria-hidden="true"> › </span>
        {message.match_subject === undefined ? (
          <a href={toHash({ kind: 'topic', streamId: message.stream_id, topic: message.subject })}>{message.subject}</a>
        ) : (
          // The server escapes the topic and marks the search's matches in it.
          <a
            href={toHash({ kind: 'topic', streamId: message.stream_id, topic: message.subject })}
            dangerouslySetInnerHTML={{ __html: message.match_subject }}
          />
        )}
      </div>
    );
  }
  const people = Array.isArray(message.display_recipient) ? message.display_recipient : [];
  const partners = dmPartners(people, snapshot.me.user_id);
  const names = partners.map(
    (id) => snapshot.users.get(id)?.full_name ?? people.find((person) => person.id === id)?.full_name ?? `User ${id}`,
  );
  return (
    <div class="recipient-header direct">
      <a href={toHash({ kind: 'dm', userIds: partners })}>You and {names.join(', ')}</a>
    </div>
  );
}

const TOP_MARGIN_PX = 150;
const BOTTOM_STICK_PX = 80;

export function MessageView({ store, state, replies }: { store: ChatStore; state: ChatState; replies: ReplyRequests }) {
  const { list, snapshot, unread, listVersion, loadingOlder } = state;
  // The "New messages" line sits where the unread messages began when the view opened, and
  // stays there while they are read (the public API's page draws the same line). The fetched
  // list's own flags count too: its newest messages' events may not have reached the page yet.
  const firstUnreadOnOpen = useMemo(
    () =>
      list.messages.find((message) => message.localId === undefined && (isUnread(unread, message.id) || !message.flags.includes('read')))
        ?.id,
    // eslint-disable-next-line react-hooks/exhaustive-deps -- recomputed only when a fresh list arrives
    [listVersion],
  );
  const feed = useRef<HTMLDivElement>(null);
  const firstId = useRef<number | undefined>(undefined);
  // The oldest shown message and how far below the top of the view it sat, to put it back there after older ones are added.
  const anchor = useRef<{ id: string; offset: number } | null>(null);
  const nearBottom = useRef(true);

  const rememberAnchor = useCallback(() => {
    const element = feed.current;
    const first = element?.querySelector<HTMLElement>('article[data-message-id]');
    anchor.current = element && first ? { id: first.dataset['messageId'] ?? '', offset: first.offsetTop - element.scrollTop } : null;
  }, []);

  const markVisibleRead = useCallback(() => {
    const element = feed.current;
    if (!element || !document.hasFocus() || document.visibilityState !== 'visible') return;
    const box = element.getBoundingClientRect();
    const seen: number[] = [];
    for (const article of element.querySelectorAll<HTMLElement>('article.unread[data-message-id]')) {
      const rect = article.getBoundingClientRect();
      if (rect.bottom > box.top && rect.top < box.bottom) seen.push(Number(article.dataset['messageId']));
    }
    store.markRead(seen);
  }, [store]);

  // A fresh list opens at its first unread message, or at the newest.
  useLayoutEffect(() => {
    const element = feed.current;
    if (!element || listVersion === 0) return;
    const first = element.querySelector<HTMLElement>('article.unread');
    if (first) element.scrollTop = Math.max(0, first.offsetTop - element.offsetTop - 40);
    else element.scrollTop = element.scrollHeight;
    nearBottom.current = !first;
  }, [listVersion]);

  // Older messages prepended: keep what was on screen where it was. New ones at the bottom: follow them.
  const oldest = list.messages[0]?.id;
  useLayoutEffect(() => {
    const element = feed.current;
    if (!element) return;
    const kept = anchor.current && element.querySelector<HTMLElement>(`article[data-message-id="${anchor.current.id}"]`);
    if (firstId.current !== undefined && oldest !== undefined && oldest < firstId.current && kept && anchor.current) {
      element.scrollTop = kept.offsetTop - anchor.current.offset;
    } else if (nearBottom.current) {
      element.scrollTop = element.scrollHeight;
    }
    firstId.current = oldest;
    rememberAnchor();
    markVisibleRead();
  }, [list.messages, oldest, markVisibleRead, rememberAnchor]);

  useEffect(() => {
    window.addEventListener('focus', markVisibleRead);
    document.addEventListener('visibilitychange', markVisibleRead);
    return () => {
      window.removeEventListener('focus', markVisibleRead);
      document.removeEventListener('visibilitychange', markVisibleRead);
    };
  }, [markVisibleRead]);

  const onUnsent = useCallback(
    (localId: string, choice: 'retry' | 'discard') => (choice === 'retry' ? void store.retry(localId) : store.discard(localId)),
    [store],
  );

  const onScroll = () => {
    const element = feed.current;
    if (!element) return;
    rememberAnchor();
    nearBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < BOTTOM_STICK_PX;
    if (element.scrollTop < TOP_MARGIN_PX) void store.loadOlder();
    if (nearBottom.current) void store.loadNewer();
    markVisibleRead();
  };

  const rows = [];
  let previous: ListedMessage | undefined;
  for (const message of list.messages) {
    const newDay = !previous || dayOf(previous.timestamp) !== dayOf(message.timestamp);
    const newConversation =
      !previous ||
      conversationOf(previous) !== conversationOf(message) ||
      (message.type === 'stream' && previous.type === 'stream' && !sameTopic(previous.subject, message.subject));
    if (newDay) {
      rows.push(
        <div class="date-separator" role="separator" key={`day-${message.timestamp}-${message.id}`}>
          <span>
            {new Date(message.timestamp * 1000).toLocaleDateString([], {
              weekday: 'short',
              year: 'numeric',
              month: 'short',
              day: 'numeric',
            })}
          </span>
        </div>,
      );
    }
    if (snapshot && (newConversation || newDay) && state.narrow.kind !== 'topic' && state.narrow.kind !== 'dm')
      rows.push(<RecipientHeader key={`to-${message.localId ?? message.id}`} message={message} snapshot={snapshot} />);
    if (message.id === firstUnreadOnOpen)
      rows.push(
        <div class="new-messages-marker" role="separator" aria-label="New messages" key="new-messages">
          <span aria-hidden="true">New messages</span>
        </div>,
      );
    const showSender = newDay || newConversation || previous?.sender_id !== message.sender_id;
    if (snapshot)
      rows.push(
        <MessageItem
          key={message.localId ?? message.id}
          message={message}
          snapshot={snapshot}
          showSender={showSender}
          unread={isUnread(unread, message.id)}
          onUnsent={onUnsent}
          replies={replies}
        />,
      );
    previous = message;
  }

  return (
    <div
      class="feed"
      ref={feed}
      role="feed"
      aria-label="Messages"
      aria-busy={list.loading ? 'true' : 'false'}
      tabIndex={0}
      onScroll={onScroll}
    >
      {list.foundOldest && list.messages.length > 0 && <p class="feed-start">The beginning of this conversation.</p>}
      {(loadingOlder || (list.loading && list.messages.length === 0)) && (
        <p class="feed-loading" role="status">
          <span class="spinner" aria-hidden="true" />
          {loadingOlder ? 'Loading older messages…' : 'Loading messages…'}
        </p>
      )}
      {rows}
      {!list.loading && list.messages.length === 0 && <p class="feed-empty">No messages here yet.</p>}
    </div>
  );
}
