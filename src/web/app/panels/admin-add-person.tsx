/**
 * Administration › Users: add a person (POST /users, then PATCH /users/{id} for a role other
 * than member). Without a typed password the page makes one and shows it once, for the
 * administrator to pass on; the server keeps only its hash.
 */
import { useState } from 'preact/hooks';
import { api } from '../../common/api';
import type { ChatSnapshot } from '../../common/types';
import { assignableRoles, ROLE } from './roles';
import { ErrorAlert, useAction } from './ui';

const GENERATED_PASSWORD_BYTES = 12;

/** A random password (16 URL-safe characters from the browser's CSPRNG). */
export function generatePassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(GENERATED_PASSWORD_BYTES));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

interface Created {
  name: string;
  email: string;
  /** Shown only when the page made it. */
  generatedPassword: string | null;
}

export function AddPersonForm({ snapshot }: { snapshot: ChatSnapshot }) {
  const [email, setEmail] = useState('');
  const [fullName, setFullName] = useState('');
  const [role, setRole] = useState<number>(ROLE.MEMBER);
  const [password, setPassword] = useState('');
  const [created, setCreated] = useState<Created | null>(null);
  const action = useAction();

  const submit = async (event: Event) => {
    event.preventDefault();
    setCreated(null);
    const chosen = password === '' ? generatePassword() : password;
    const person = { name: fullName.trim(), email: email.trim() };
    const ok = await action.run(async () => {
      const answer = await api.post<{ user_id: number }>('/users', { email: person.email, password: chosen, full_name: person.name });
      if (role !== ROLE.MEMBER) await api.patch(`/users/${answer.user_id}`, { role });
    });
    if (!ok) return;
    setCreated({ ...person, generatedPassword: password === '' ? chosen : null });
    setEmail('');
    setFullName('');
    setPassword('');
    setRole(ROLE.MEMBER);
  };

  return (
    <form class="panel-form admin-add-person" aria-label="Add a person" onSubmit={(event) => void submit(event)}>
      <fieldset>
        <legend>Add a person</legend>
        <label>
          Email
          <input type="email" required value={email} onInput={(event) => setEmail(event.currentTarget.value)} />
        </label>
        <label>
          Full name
          <input type="text" required value={fullName} onInput={(event) => setFullName(event.currentTarget.value)} />
        </label>
        <label>
          Role
          <select value={String(role)} onChange={(event) => setRole(Number(event.currentTarget.value))}>
            {assignableRoles(snapshot.me).map((choice) => (
              <option key={choice.value} value={String(choice.value)}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Password (leave empty to generate one)
          <input type="text" autoComplete="new-password" value={password} onInput={(event) => setPassword(event.currentTarget.value)} />
        </label>
        <button type="submit" disabled={action.busy}>
          Add person
        </button>
      </fieldset>
      <ErrorAlert error={action.error} />
      {created && (
        <p role="status" class="panel-notice">
          Added {created.name} ({created.email}).
          {created.generatedPassword !== null && (
            <>
              {' '}
              Their password, shown only now: <code class="generated-password">{created.generatedPassword}</code>
            </>
          )}
        </p>
      )}
    </form>
  );
}
