/**
 * The left column: search, the fixed views, subscribed streams (pinned first, muted dimmed,
 * unread counts), the open stream's topics, and direct conversations, most recent first.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../common/api';
import type { ChatSnapshot } from '../common/types';
import { dmKey, sameNarrow, toHash, type Narrow } from '../state/narrow';
import { isTopicMuted, sortedSubscriptions } from '../state/snapshot';
import { topicUnreadCount, unreadByConversation, unreadByStream } from '../state/unread';
import { SearchBox } from './search-box';
import type { ChatState } from './store';

interface Topic {
  name: string;
  max_id: number;
}

function Count({ value }: { value: number | undefined }) {
  return value ? <span class="unread-count">{value}</span> : null;
}

function openStreamId(narrow: Narrow): number | null {
  return narrow.kind === 'stream' || narrow.kind === 'topic' ? narrow.streamId : null;
}

/** The open stream's topics; fetched again as messages arrive (at most once a second). */
function useTopics(streamId: number | null, messageCount: number): Topic[] {
  const [topics, setTopics] = useState<Topic[]>([]);
  useEffect(() => {
    if (streamId === null) {
      setTopics([]);
      return;
    }
    let current = true;
    const timer = setTimeout(
      () =>
        void api
          .get<{ topics: Topic[] }>(`/users/me/${streamId}/topics`)
          .then((answer) => current && setTopics([...answer.topics].sort((a, b) => b.max_id - a.max_id)))
          .catch(() => undefined),
      messageCount === 0 ? 0 : 300,
    );
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [streamId, messageCount]);
  return topics;
}

function NarrowLink({
  narrow,
  current,
  children,
  className,
}: {
  narrow: Narrow;
  current: Narrow;
  children: ComponentChildren;
  className?: string;
}) {
  const here = sameNarrow(narrow, current);
  return (
    <a href={toHash(narrow)} class={className} aria-current={here ? 'page' : undefined}>
      {children}
    </a>
  );
}

export function LeftColumn({ state, snapshot }: { state: ChatState; snapshot: ChatSnapshot }) {
  const { narrow, unread } = state;
  const streamId = openStreamId(narrow);
  const topics = useTopics(streamId, state.messageCount);
  const streamCounts = unreadByStream(unread);
  const conversationCounts = unreadByConversation(unread);
  const myId = snapshot.me.user_id;
  const conversations = new Map(state.recentConversations);
  for (const key of conversationCounts.keys()) if (!conversations.has(key)) conversations.set(key, 0);
  const orderedConversations = [...conversations].sort((a, b) => b[1] - a[1]).map(([key]) => key);

  return (
    <nav aria-label="Streams" class="left-column">
      <SearchBox narrow={narrow} snapshot={snapshot} />
      <ul class="views">
        <li>
          <NarrowLink narrow={{ kind: 'all' }} current={narrow}>
            All messages
          </NarrowLink>
        </li>
        <li>
          <NarrowLink narrow={{ kind: 'starred' }} current={narrow}>
            Starred
          </NarrowLink>
        </li>
        <li>
          <NarrowLink narrow={{ kind: 'mentioned' }} current={narrow}>
            Mentions <Count value={unread.mentions.size} />
          </NarrowLink>
        </li>
      </ul>
      <h2 class="column-heading">Streams</h2>
      <ul class="streams">
        {sortedSubscriptions(snapshot).map((sub) => (
          <li key={sub.stream_id} class={sub.is_muted ? 'muted' : undefined}>
            <NarrowLink narrow={{ kind: 'stream', streamId: sub.stream_id }} current={narrow} className="stream-link">
              <span class="stream-mark" aria-hidden="true">
                {sub.invite_only ? '🔒' : '#'}
              </span>
              <span class="name">{sub.name}</span>
              <Count value={streamCounts.get(sub.stream_id)} />
            </NarrowLink>
            {sub.stream_id === streamId && (
              <ul class="topics">
                {topics.map((topic) => (
                  <li key={topic.name} class={isTopicMuted(snapshot, sub.stream_id, topic.name) ? 'muted' : undefined}>
                    <NarrowLink narrow={{ kind: 'topic', streamId: sub.stream_id, topic: topic.name }} current={narrow}>
                      <span class="name">{topic.name}</span>
                      <Count value={topicUnreadCount(unread, sub.stream_id, topic.name)} />
                    </NarrowLink>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      <h2 class="column-heading">Direct messages</h2>
      <ul class="conversations">
        {orderedConversations.map((key) => {
          const userIds = key.split(',').map(Number);
          const names = userIds.map((id) =>
            id === myId ? `${snapshot.me.full_name} (you)` : (snapshot.users.get(id)?.full_name ?? `User ${id}`),
          );
          return (
            <li key={key}>
              <NarrowLink narrow={{ kind: 'dm', userIds }} current={narrow}>
                <span class="name">{names.join(', ')}</span>
                <Count value={conversationCounts.get(dmKey(userIds))} />
              </NarrowLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
