/**
 * What the edit-history dialog lists for each version of a message, from the server's snapshots
 * (GET /messages/{message_id}/history, oldest first): who posted, edited or moved it and when,
 * the topic and stream moves in words, and the HTML to show (the edit's diff, marked by the
 * server, or the original rendering).
 */
import type { ChatSnapshot, Message, MessageSnapshot } from '../common/types';

export interface HistoryVersion {
  /** "Posted by Ada", "Edited by Ada" (the content changed) or "Moved by Ada" (only topic or stream). */
  heading: string;
  timestamp: number;
  /** "Topic changed from X to Y", "Moved from #a to #b". */
  changes: string[];
  /** Rendered HTML from the server; null when this version left the content as it was. */
  html: string | null;
}

/** How the versions name people and streams: the page's snapshot, or a stand-in for what it does not know. */
export interface HistoryNames {
  person: (userId: number | null) => string;
  stream: (streamId: number) => string;
}

export function historyNames(snapshot: Pick<ChatSnapshot, 'users' | 'streams'>): HistoryNames {
  return {
    person: (userId) => (userId === null ? undefined : snapshot.users.get(userId)?.full_name) ?? 'Unknown person',
    stream: (streamId) => snapshot.streams.get(streamId)?.name ?? 'unknown stream',
  };
}

export function historyVersions(snapshots: readonly MessageSnapshot[], names: HistoryNames): HistoryVersion[] {
  return snapshots.map((version, index) => {
    const who = names.person(version.user_id);
    if (index === 0) return { heading: `Posted by ${who}`, timestamp: version.timestamp, changes: [], html: version.rendered_content };
    const changes: string[] = [];
    if (version.prev_topic !== undefined) changes.push(`Topic changed from ${version.prev_topic} to ${version.topic}`);
    if (version.prev_stream !== undefined && version.stream !== undefined) {
      changes.push(`Moved from #${names.stream(version.prev_stream)} to #${names.stream(version.stream)}`);
    }
    const contentChanged = version.prev_content !== undefined;
    return {
      heading: `${contentChanged ? 'Edited' : 'Moved'} by ${who}`,
      timestamp: version.timestamp,
      changes,
      html: contentChanged ? (version.content_html_diff ?? version.rendered_content) : null,
    };
  });
}

/**
 * Whether the page offers a message's edit history: it was edited (or moved), and the
 * organization lets members see edit history (register's `realm_allow_edit_history`).
 */
export function offersEditHistory(realm: ChatSnapshot['realm'], message: Pick<Message, 'last_edit_timestamp'>): boolean {
  return message.last_edit_timestamp !== undefined && realm['realm_allow_edit_history'] !== false;
}
