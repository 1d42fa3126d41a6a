/**
 * Where a message goes: `Stream` + `Topic` (with completion from subscriptions and the stream's
 * topics) or `To` (names or emails, comma-separated, completed from people), and turning what
 * was typed into the IDs POST /messages takes.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../common/api';
import type { ChatSnapshot } from '../common/types';
import { sortedSubscriptions } from '../state/snapshot';
import type { ComposeMode } from './recipient-rules';

function useStreamTopics(snapshot: ChatSnapshot | null, streamName: string): string[] {
  const [topics, setTopics] = useState<string[]>([]);
  const stream = snapshot
    ? [...snapshot.streams.values()].find((candidate) => candidate.name.toLowerCase() === streamName.trim().toLowerCase())
    : undefined;
  const streamId = stream?.stream_id;
  useEffect(() => {
    if (streamId === undefined) {
      setTopics([]);
      return;
    }
    let current = true;
    api
      .get<{ topics: { name: string }[] }>(`/users/me/${streamId}/topics`)
      .then((answer) => current && setTopics(answer.topics.map((topic) => topic.name)))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [streamId]);
  return topics;
}

interface RecipientFieldsProps {
  snapshot: ChatSnapshot | null;
  mode: ComposeMode;
  stream: string;
  topic: string;
  to: string;
  onChange: (change: { mode?: ComposeMode; stream?: string; topic?: string; to?: string }) => void;
}

export function RecipientFields({ snapshot, mode, stream, topic, to, onChange }: RecipientFieldsProps) {
  const topics = useStreamTopics(snapshot, mode === 'stream' ? stream : '');
  // Completion of the last name in the comma-separated list: every choice keeps the names before it.
  const typedBefore = to.includes(',') ? `${to.slice(0, to.lastIndexOf(',') + 1).trim()} ` : '';
  const people = snapshot ? [...snapshot.users.values()].filter((user) => user.is_active && user.user_id !== snapshot.me.user_id) : [];
  return (
    <div class="recipients">
      <div class="mode-toggle" role="group" aria-label="Send to">
        <button type="button" aria-pressed={mode === 'stream' ? 'true' : 'false'} onClick={() => onChange({ mode: 'stream' })}>
          Stream message
        </button>
        <button type="button" aria-pressed={mode === 'direct' ? 'true' : 'false'} onClick={() => onChange({ mode: 'direct' })}>
          Direct message
        </button>
      </div>
      {mode === 'stream' ? (
        <>
          <label>
            <span class="field-label">Stream</span>
            <input
              aria-label="Stream"
              list="compose-streams"
              value={stream}
              autocomplete="off"
              onInput={(event) => onChange({ stream: event.currentTarget.value })}
            />
          </label>
          <datalist id="compose-streams">
            {snapshot && sortedSubscriptions(snapshot).map((sub) => <option key={sub.stream_id} value={sub.name} />)}
          </datalist>
          <label>
            <span class="field-label">Topic</span>
            <input
              aria-label="Topic"
              list="compose-topics"
              value={topic}
              autocomplete="off"
              maxLength={Number(snapshot?.realm['max_topic_length'] ?? 60)}
              onInput={(event) => onChange({ topic: event.currentTarget.value })}
            />
          </label>
          <datalist id="compose-topics">
            {topics.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        </>
      ) : (
        <>
          <label class="to-field">
            <span class="field-label">To</span>
            <input
              aria-label="To"
              list="compose-people"
              value={to}
              autocomplete="off"
              placeholder="Names or emails, separated by commas"
              onInput={(event) => onChange({ to: event.currentTarget.value })}
            />
          </label>
          <datalist id="compose-people">
            {people.map((user) => (
              <option key={user.user_id} value={`${typedBefore}${user.email}`}>
                {user.full_name}
              </option>
            ))}
          </datalist>
        </>
      )}
    </div>
  );
}
