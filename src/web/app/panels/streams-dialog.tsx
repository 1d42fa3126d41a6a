/** Every stream the person can see, to subscribe or unsubscribe, a filter, and a form to create one. */
import { useState } from 'preact/hooks';
import { api } from '../../common/api';
import type { Stream } from '../../common/types';
import { HASH_PREFIX, type DialogProps } from './contracts';
import { ErrorAlert, Modal, useAction } from './ui';

export function matchesStreamFilter(stream: Pick<Stream, 'name' | 'description'>, filter: string): boolean {
  const wanted = filter.trim().toLowerCase();
  return wanted === '' || stream.name.toLowerCase().includes(wanted) || stream.description.toLowerCase().includes(wanted);
}

function CreateStreamForm() {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isPrivate, setIsPrivate] = useState(false);
  const [created, setCreated] = useState('');
  const action = useAction();

  const submit = async (event: Event) => {
    event.preventDefault();
    setCreated('');
    const streamName = name.trim();
    const ok = await action.run(() =>
      api.post('/users/me/subscriptions', {
        subscriptions: [{ name: streamName, description: description.trim() }],
        invite_only: isPrivate,
      }),
    );
    if (ok) {
      setName('');
      setDescription('');
      setIsPrivate(false);
      setCreated(`Created ${streamName}`);
    }
  };

  return (
    <form onSubmit={submit} class="panel-form">
      <fieldset>
        <legend>Create stream</legend>
        <label>
          Stream name
          <input type="text" required value={name} onInput={(event) => setName(event.currentTarget.value)} />
        </label>
        <label>
          Description
          <input type="text" value={description} onInput={(event) => setDescription(event.currentTarget.value)} />
        </label>
        <label class="panel-check">
          <input type="checkbox" checked={isPrivate} onChange={(event) => setIsPrivate(event.currentTarget.checked)} />
          Private
        </label>
        <ErrorAlert error={action.error} />
        {created && <p role="status">{created}</p>}
        <div class="panel-buttons">
          <button type="submit" disabled={action.busy || name.trim() === ''}>
            Create
          </button>
        </div>
      </fieldset>
    </form>
  );
}

export function StreamsDialog({ snapshot, onClose }: DialogProps) {
  const [filter, setFilter] = useState('');
  const action = useAction();
  const streams = [...snapshot.streams.values()]
    .filter((stream) => matchesStreamFilter(stream, filter))
    .sort((a, b) => a.name.localeCompare(b.name));

  const toggle = (stream: Stream, subscribed: boolean) =>
    void action.run(() =>
      subscribed
        ? api.delete('/users/me/subscriptions', { subscriptions: [stream.name] })
        : api.post('/users/me/subscriptions', { subscriptions: [{ name: stream.name }] }),
    );

  return (
    <Modal title="Streams" onClose={onClose} class="streams-dialog">
      <label>
        Filter streams
        <input type="search" value={filter} onInput={(event) => setFilter(event.currentTarget.value)} />
      </label>
      <ErrorAlert error={action.error} />
      <ul class="stream-browser">
        {streams.map((stream) => {
          const subscribed = snapshot.subscriptions.has(stream.stream_id);
          return (
            <li key={stream.stream_id} class="stream-browser-row">
              <div class="stream-browser-name" id={`stream-browser-${stream.stream_id}`}>
                <a href={`${HASH_PREFIX}stream/${stream.stream_id}`} onClick={onClose}>
                  {stream.invite_only && <span aria-hidden="true">🔒 </span>}
                  {stream.name}
                  {stream.invite_only && <span class="visually-hidden"> (private)</span>}
                </a>
                {stream.description && <span class="panel-muted"> {stream.description}</span>}
              </div>
              <button
                type="button"
                disabled={action.busy}
                aria-describedby={`stream-browser-${stream.stream_id}`}
                onClick={() => toggle(stream, subscribed)}
              >
                {subscribed ? 'Unsubscribe' : 'Subscribe'}
              </button>
            </li>
          );
        })}
        {streams.length === 0 && <li class="panel-muted">No streams match.</li>}
      </ul>
      <CreateStreamForm />
    </Modal>
  );
}
