/**
 * Beside the view's title: mark the open stream or topic, or everything, as read at once
 * (POST /mark_stream_as_read, /mark_topic_as_read, /mark_all_as_read). Each is shown only while
 * it has unread messages; the server's flag events bring the counts down in every open page.
 */
import { useState } from 'preact/hooks';
import { api, ApiError, type Params } from '../common/api';
import type { Narrow } from '../state/narrow';
import { topicUnreadCount, unreadByStream, type UnreadState } from '../state/unread';
import { ErrorAlert } from './panels/ui';

interface MarkRead {
  label: string;
  path: string;
  params: Params;
  count: number;
}

/** The open stream's or topic's button, then Mark all as read, each while it has unread messages. */
function markings(narrow: Narrow, unread: UnreadState): MarkRead[] {
  const all: MarkRead = { label: 'Mark all as read', path: '/mark_all_as_read', params: {}, count: unread.messages.size };
  const here: MarkRead | null =
    narrow.kind === 'stream'
      ? {
          label: 'Mark stream as read',
          path: '/mark_stream_as_read',
          params: { stream_id: narrow.streamId },
          count: unreadByStream(unread).get(narrow.streamId) ?? 0,
        }
      : narrow.kind === 'topic'
        ? {
            label: 'Mark topic as read',
            path: '/mark_topic_as_read',
            params: { stream_id: narrow.streamId, topic_name: narrow.topic },
            count: topicUnreadCount(unread, narrow.streamId, narrow.topic),
          }
        : null;
  return [...(here ? [here] : []), all].filter((marking) => marking.count > 0);
}

export function MarkReadButtons({ narrow, unread }: { narrow: Narrow; unread: UnreadState }) {
  const [error, setError] = useState('');
  const shown = markings(narrow, unread);
  const run = (marking: MarkRead) => {
    setError('');
    api.post(marking.path, marking.params).catch((failure: unknown) => {
      setError(failure instanceof ApiError ? failure.message : 'Nothing was marked as read');
    });
  };
  if (shown.length === 0 && !error) return null;
  return (
    <span class="mark-read">
      {shown.map((marking) => (
        <button key={marking.path} type="button" class="mark-read-button" onClick={() => run(marking)}>
          {marking.label}
        </button>
      ))}
      <ErrorAlert error={error} />
    </span>
  );
}
