import { highlightHtmlDifferences } from '../lib/html-diff';
import type { MessageRow } from './messages';
import type { MessageSnapshot } from '../schemas/objects';

/** One stored entry of `messages.edit_history` (SPEC §Resources, Edit-history entry). */
export interface EditHistoryEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_rendered_content_version?: number;
  prev_stream?: number;
  stream?: number;
  prev_topic?: string;
  topic?: string;
}

export function storedEditHistory(message: MessageRow): EditHistoryEntry[] {
  return message.edit_history ? (JSON.parse(message.edit_history) as EditHistoryEntry[]) : [];
}

/**
 * GET /messages/{message_id}/history: one snapshot per version of the message, oldest first
 * (openapi get-message-history). The stored history holds only what each edit changed, most
 * recent first, so the snapshots are rebuilt walking back from the current message; the
 * original snapshot has only `topic`, `content`, `rendered_content`, `timestamp`, `user_id`.
 * A snapshot that changed the content has `content_html_diff`, its rendering against the one before.
 */
export function messageHistorySnapshots(message: MessageRow): MessageSnapshot[] {
  let content = message.content;
  let renderedContent = message.rendered_content;
  let topic = message.topic;
  const snapshots: MessageSnapshot[] = [];
  for (const entry of storedEditHistory(message)) {
    const snapshot: MessageSnapshot = {
      content,
      rendered_content: renderedContent,
      timestamp: entry.timestamp,
      topic,
      user_id: entry.user_id,
    };
    if (entry.prev_topic !== undefined) {
      snapshot.prev_topic = entry.prev_topic;
      topic = entry.prev_topic;
    }
    if (entry.prev_content !== undefined) {
      snapshot.prev_content = entry.prev_content;
      snapshot.prev_rendered_content = entry.prev_rendered_content ?? '';
      snapshot.content_html_diff = highlightHtmlDifferences(entry.prev_rendered_content ?? '', renderedContent);
      content = entry.prev_content;
      renderedContent = entry.prev_rendered_content ?? '';
    }
    if (entry.prev_stream !== undefined) {
      snapshot.prev_stream = entry.prev_stream;
      snapshot.stream = entry.stream;
    }
    snapshots.push(snapshot);
  }
  snapshots.push({
    content,
    rendered_content: renderedContent,
    timestamp: message.date_sent,
    topic,
    user_id: message.sender_id,
  });
  return snapshots.reverse();
}
