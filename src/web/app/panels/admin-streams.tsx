/**
 * Administration › Streams: pick a stream, then list its members (GET /streams/{id}/members),
 * subscribe other people to it (POST /users/me/subscriptions with `principals`), rename it or
 * change its description (PATCH /streams/{id}), or archive it (DELETE /streams/{id}, confirmed).
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../common/api';
import type { ChatSnapshot, Stream } from '../../common/types';
import { ErrorAlert, useAction } from './ui';

/** People named by email or full name, comma-separated, to their IDs; an unknown one is an error. */
export function peopleByName(snapshot: Pick<ChatSnapshot, 'users'>, text: string): { ids: number[] } | { error: string } {
  const ids: number[] = [];
  for (const part of text
    .split(',')
    .map((piece) => piece.trim())
    .filter(Boolean)) {
    const wanted = part.toLowerCase();
    const user = [...snapshot.users.values()].find(
      (candidate) =>
        candidate.is_active !== false && (candidate.email.toLowerCase() === wanted || candidate.full_name.toLowerCase() === wanted),
    );
    if (!user) return { error: `Nobody here is called ${part}` };
    ids.push(user.user_id);
  }
  return ids.length === 0 ? { error: 'Name at least one person' } : { ids };
}

function StreamMembers({ snapshot, stream }: { snapshot: ChatSnapshot; stream: Stream }) {
  const [members, setMembers] = useState<number[] | null>(null);
  const [who, setWho] = useState('');
  const [done, setDone] = useState('');
  const action = useAction();
  // The list is fetched for each stream and again after a subscription this tab made.
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let current = true;
    void action.run(async () => {
      const answer = await api.get<{ subscribers: number[] }>(`/streams/${stream.stream_id}/members`);
      if (current) setMembers(answer.subscribers);
    });
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- action.run is stable
  }, [stream.stream_id, version]);

  const subscribe = async (event: Event) => {
    event.preventDefault();
    setDone('');
    const people = peopleByName(snapshot, who);
    if ('error' in people) {
      await action.run(() => Promise.reject(new Error(people.error)));
      return;
    }
    const ok = await action.run(() =>
      api.post('/users/me/subscriptions', { subscriptions: [{ name: stream.name }], principals: people.ids }),
    );
    if (!ok) return;
    setWho('');
    setDone(`Subscribed ${people.ids.map((id) => snapshot.users.get(id)?.full_name ?? `User ${id}`).join(', ')}`);
    setVersion(version + 1);
  };

  const names = (members ?? []).map((id) => snapshot.users.get(id)?.full_name ?? `User ${id}`).sort((a, b) => a.localeCompare(b));
  return (
    <section aria-label={`Members of ${stream.name}`}>
      <h3>Members ({members === null ? '…' : names.length})</h3>
      <ul class="admin-members">
        {names.map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ul>
      <form class="panel-form" onSubmit={(event) => void subscribe(event)}>
        <label>
          Subscribe people (emails or names, comma-separated)
          <input type="text" value={who} onInput={(event) => setWho(event.currentTarget.value)} />
        </label>
        <button type="submit" disabled={action.busy}>
          Subscribe
        </button>
      </form>
      <ErrorAlert error={action.error} />
      {done && (
        <p role="status" class="panel-notice">
          {done}
        </p>
      )}
    </section>
  );
}

function StreamSettings({ stream }: { stream: Stream }) {
  const [name, setName] = useState(stream.name);
  const [description, setDescription] = useState(stream.description);
  const [confirming, setConfirming] = useState(false);
  const [saved, setSaved] = useState('');
  const action = useAction();
  useEffect(() => {
    setName(stream.name);
    setDescription(stream.description);
    setConfirming(false);
  }, [stream.stream_id, stream.name, stream.description]);

  const save = async (event: Event) => {
    event.preventDefault();
    setSaved('');
    const changes: Record<string, string> = {};
    if (name.trim() !== stream.name) changes['new_name'] = name.trim();
    if (description !== stream.description) changes['description'] = description;
    if (Object.keys(changes).length === 0) return;
    if (await action.run(() => api.patch(`/streams/${stream.stream_id}`, changes))) setSaved('Saved');
  };

  return (
    <form class="panel-form" aria-label={`Settings of ${stream.name}`} onSubmit={(event) => void save(event)}>
      <label>
        Stream name
        <input type="text" required value={name} onInput={(event) => setName(event.currentTarget.value)} />
      </label>
      <label>
        Description
        <input type="text" value={description} onInput={(event) => setDescription(event.currentTarget.value)} />
      </label>
      <button type="submit" disabled={action.busy}>
        Save stream
      </button>
      {saved && (
        <span role="status" class="panel-notice">
          {saved}
        </span>
      )}
      {confirming ? (
        <span class="admin-confirm">
          Archive {stream.name}? Its messages stay, nobody can post to it.{' '}
          <button
            type="button"
            class="panel-danger"
            disabled={action.busy}
            onClick={() => void action.run(() => api.delete(`/streams/${stream.stream_id}`))}
          >
            Archive {stream.name}
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </span>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>
          Archive stream
        </button>
      )}
      <ErrorAlert error={action.error} />
    </form>
  );
}

export function StreamsTab({ snapshot }: { snapshot: ChatSnapshot }) {
  const streams = [...snapshot.streams.values()].sort((a, b) => a.name.localeCompare(b.name));
  const [chosenId, setChosenId] = useState<number | null>(null);
  const stream = streams.find((candidate) => candidate.stream_id === chosenId) ?? streams[0];
  if (!stream) return <p class="panel-muted">No streams yet.</p>;
  return (
    <>
      <label>
        Stream
        <select value={String(stream.stream_id)} onChange={(event) => setChosenId(Number(event.currentTarget.value))}>
          {streams.map((candidate) => (
            <option key={candidate.stream_id} value={String(candidate.stream_id)}>
              {candidate.name}
            </option>
          ))}
        </select>
      </label>
      <StreamSettings stream={stream} />
      <StreamMembers snapshot={snapshot} stream={stream} />
    </>
  );
}
