/**
 * A topic resolved, renamed or moved while it is open: the view follows it to its new name
 * and stream, so the next message goes there rather than recreating the old topic.
 */
import type { UpdateMessageEvent } from './events';
import { sameTopic, type Narrow } from './narrow';

/** The open topic's new address after `event`, or null when the event does not move it. */
export function followedTopic(narrow: Narrow, event: UpdateMessageEvent): Narrow | null {
  if (narrow.kind !== 'topic' || event.orig_subject === undefined || event.stream_id !== narrow.streamId) return null;
  // Moving one message leaves the rest of the topic where it is.
  if (event.propagate_mode === 'change_one' || !sameTopic(event.orig_subject, narrow.topic)) return null;
  const moved: Narrow = { kind: 'topic', streamId: event.new_stream_id ?? narrow.streamId, topic: event.subject ?? narrow.topic };
  return moved.streamId === narrow.streamId && moved.topic === narrow.topic ? null : moved;
}
