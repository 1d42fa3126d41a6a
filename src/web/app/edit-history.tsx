/**
 * A message's edit history in a dialog over the page: every version, oldest first, with who
 * posted, edited or moved it and when, topic and stream moves in words, and the content with
 * the server's diff marks (content_html_diff) shown as insertions and deletions.
 */
import { useEffect, useState } from 'preact/hooks';
import '../styles/edit-history.css';
import { api } from '../common/api';
import type { ChatSnapshot, Message, MessageSnapshot } from '../common/types';
import { historyNames, historyVersions } from './edit-history-versions';
import { MessageHtml } from './message-html';
import { ErrorAlert, Modal, useAction } from './panels/ui';

export function formatDateTime(timestamp: number, twentyFourHour: boolean): string {
  return new Date(timestamp * 1000).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short', hour12: !twentyFourHour });
}

interface EditHistoryProps {
  snapshot: ChatSnapshot;
  message: Message;
  onClose: () => void;
}

export function EditHistoryDialog({ snapshot, message, onClose }: EditHistoryProps) {
  const [snapshots, setSnapshots] = useState<MessageSnapshot[] | null>(null);
  const load = useAction();
  // Loaded again when the message is edited while the dialog is open.
  useEffect(() => {
    void load.run(async () => {
      const answer = await api.get<{ message_history: MessageSnapshot[] }>(`/messages/${message.id}/history`);
      setSnapshots(answer.message_history);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `load` is a new object each render; loading follows the message alone
  }, [message.id, message.last_edit_timestamp]);

  const twentyFourHour = snapshot.userSettings['twenty_four_hour_time'] === true;
  const versions = snapshots === null ? [] : historyVersions(snapshots, historyNames(snapshot));
  return (
    <Modal title="Edit history" onClose={onClose} class="edit-history-dialog">
      {snapshots === null && load.busy && <p role="status">Loading the edit history…</p>}
      <ErrorAlert error={load.error} />
      <ol class="edit-history" aria-label="Versions">
        {versions.map((version, index) => (
          <li key={index} class="edit-history-version">
            <p class="edit-history-heading">
              <span>{version.heading}</span>{' '}
              <time dateTime={new Date(version.timestamp * 1000).toISOString()}>{formatDateTime(version.timestamp, twentyFourHour)}</time>
            </p>
            {version.changes.map((change) => (
              <p key={change} class="edit-history-change">
                {change}
              </p>
            ))}
            {version.html !== null && (
              <MessageHtml
                html={version.html}
                class="message-content edit-history-content"
                myId={snapshot.me.user_id}
                emojiset={snapshot.userSettings['emojiset']}
              />
            )}
          </li>
        ))}
      </ol>
    </Modal>
  );
}
