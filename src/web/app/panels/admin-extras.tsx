/** The administration tabs for linkifiers and custom emoji. */
import { useRef, useState } from 'preact/hooks';
import { api, postFile } from '../../common/api';
import type { ChatSnapshot } from '../../common/types';
import { ErrorAlert, useAction } from './ui';

export function LinkifiersTab({ snapshot }: { snapshot: ChatSnapshot }) {
  const [pattern, setPattern] = useState('');
  const [template, setTemplate] = useState('');
  const add = useAction();
  const remove = useAction();

  const submit = async (event: Event) => {
    event.preventDefault();
    if (await add.run(() => api.post('/realm/filters', { pattern, url_template: template }))) {
      setPattern('');
      setTemplate('');
    }
  };

  return (
    <>
      <table class="admin-table">
        <thead>
          <tr>
            <th scope="col">Pattern</th>
            <th scope="col">URL template</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {snapshot.linkifiers.map((linkifier) => (
            <tr key={linkifier.id}>
              <td>
                <code>{linkifier.pattern}</code>
              </td>
              <td>
                <code>{linkifier.url_template}</code>
              </td>
              <td>
                <button
                  type="button"
                  aria-label={`Remove linkifier ${linkifier.pattern}`}
                  disabled={remove.busy}
                  onClick={() => void remove.run(() => api.delete(`/realm/filters/${linkifier.id}`))}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {snapshot.linkifiers.length === 0 && <p class="panel-muted">No linkifiers yet.</p>}
      <ErrorAlert error={remove.error} />
      <form onSubmit={submit} class="panel-form">
        <fieldset>
          <legend>Add linkifier</legend>
          <label>
            Pattern
            <input
              type="text"
              required
              placeholder="#(?P<id>[0-9]+)"
              value={pattern}
              onInput={(event) => setPattern(event.currentTarget.value)}
            />
          </label>
          <label>
            URL template
            <input
              type="text"
              required
              placeholder="https://example.com/issues/{id}"
              value={template}
              onInput={(event) => setTemplate(event.currentTarget.value)}
            />
          </label>
          <ErrorAlert error={add.error} />
          <div class="panel-buttons">
            <button type="submit" disabled={add.busy}>
              Add linkifier
            </button>
          </div>
        </fieldset>
      </form>
    </>
  );
}

/** Uploads a custom emoji (POST /realm/emoji/{name}, the image as a multipart form). */
export async function uploadEmoji(name: string, file: File): Promise<void> {
  await postFile(`/realm/emoji/${encodeURIComponent(name)}`, file);
}

export function CustomEmojiTab({ snapshot }: { snapshot: ChatSnapshot }) {
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useAction();
  const remove = useAction();
  const emoji = Object.values(snapshot.realmEmoji)
    .filter((entry) => !entry.deactivated)
    .sort((a, b) => a.name.localeCompare(b.name));

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!file) return;
    if (await upload.run(() => uploadEmoji(name.trim(), file))) {
      setName('');
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  return (
    <>
      <ul class="admin-emoji">
        {emoji.map((entry) => (
          <li key={entry.id}>
            <img class="emoji-image" src={entry.source_url} alt={entry.name} />
            <code>:{entry.name}:</code>
            {entry.author_id !== null && (
              <span class="panel-muted"> by {snapshot.users.get(entry.author_id)?.full_name ?? 'Unknown user'}</span>
            )}
            <button
              type="button"
              aria-label={`Deactivate emoji ${entry.name}`}
              disabled={remove.busy}
              onClick={() => void remove.run(() => api.delete(`/realm/emoji/${encodeURIComponent(entry.name)}`))}
            >
              Deactivate
            </button>
          </li>
        ))}
      </ul>
      {emoji.length === 0 && <p class="panel-muted">No custom emoji yet.</p>}
      <ErrorAlert error={remove.error} />
      <form onSubmit={submit} class="panel-form">
        <fieldset>
          <legend>Add custom emoji</legend>
          <label>
            Emoji name
            <input type="text" required value={name} onInput={(event) => setName(event.currentTarget.value)} />
          </label>
          <label>
            Emoji image
            <input
              ref={fileInput}
              type="file"
              accept="image/*"
              required
              onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
            />
          </label>
          <ErrorAlert error={upload.error} />
          <div class="panel-buttons">
            <button type="submit" disabled={upload.busy || !file || name.trim() === ''}>
              Upload emoji
            </button>
          </div>
        </fieldset>
      </form>
    </>
  );
}
