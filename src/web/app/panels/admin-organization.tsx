/** The organization tab: name, description and a few policies, saved together by one `PATCH /realm`. */
import { useState } from 'preact/hooks';
import { api, type Params } from '../../common/api';
import type { ChatSnapshot } from '../../common/types';
import { POLICY } from './permissions';
import { ErrorAlert, useAction } from './ui';

/** The policies message settings accept (the server's MESSAGE_POLICY values). */
const MESSAGE_POLICIES = [
  { value: POLICY.EVERYONE, label: 'Everyone' },
  { value: POLICY.MEMBERS, label: 'Members' },
  { value: POLICY.FULL_MEMBERS, label: 'Full members' },
  { value: POLICY.MODERATORS, label: 'Moderators' },
  { value: POLICY.ADMINS, label: 'Administrators' },
];

const POLICY_FIELDS = [
  { name: 'delete_own_message_policy', label: 'Who may delete their own messages' },
  { name: 'edit_topic_policy', label: 'Who may edit topics' },
  { name: 'move_messages_between_streams_policy', label: 'Who may move messages between streams' },
] as const;

export interface OrganizationForm {
  name: string;
  description: string;
  allow_message_editing: boolean;
  /** Seconds as typed; empty means no limit. */
  message_content_edit_limit_seconds: string;
  waiting_period_threshold: string;
  delete_own_message_policy: number;
  edit_topic_policy: number;
  move_messages_between_streams_policy: number;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

export function organizationForm(realm: ChatSnapshot['realm']): OrganizationForm {
  const policy = (name: string, fallback: number) =>
    typeof realm[`realm_${name}`] === 'number' ? (realm[`realm_${name}`] as number) : fallback;
  return {
    name: text(realm['realm_name']),
    description: text(realm['realm_description']),
    allow_message_editing: realm['realm_allow_message_editing'] !== false,
    message_content_edit_limit_seconds: text(realm['realm_message_content_edit_limit_seconds']),
    waiting_period_threshold: text(realm['realm_waiting_period_threshold'] ?? 0),
    delete_own_message_policy: policy('delete_own_message_policy', POLICY.ADMINS),
    edit_topic_policy: policy('edit_topic_policy', POLICY.EVERYONE),
    move_messages_between_streams_policy: policy('move_messages_between_streams_policy', POLICY.ADMINS),
  };
}

/**
 * The `PATCH /realm` parameters for what the form changed (nothing else, so one person's save
 * does not undo another's). A blank edit limit is sent as `unlimited`; a number that is not a
 * whole number is sent as typed, for the server to refuse with its own message.
 */
export function organizationChanges(before: OrganizationForm, after: OrganizationForm): Params {
  const changes: Params = {};
  if (after.name !== before.name) changes['name'] = after.name.trim();
  if (after.description !== before.description) changes['description'] = after.description;
  if (after.allow_message_editing !== before.allow_message_editing) changes['allow_message_editing'] = after.allow_message_editing;
  const limit = after.message_content_edit_limit_seconds.trim();
  if (limit !== before.message_content_edit_limit_seconds.trim()) {
    changes['message_content_edit_limit_seconds'] = limit === '' ? 'unlimited' : /^\d+$/.test(limit) ? Number(limit) : limit;
  }
  const waiting = after.waiting_period_threshold.trim();
  if (waiting !== before.waiting_period_threshold.trim())
    changes['waiting_period_threshold'] = /^\d+$/.test(waiting) ? Number(waiting) : waiting;
  for (const { name } of POLICY_FIELDS) if (after[name] !== before[name]) changes[name] = after[name];
  return changes;
}

export function OrganizationTab({ snapshot }: { snapshot: ChatSnapshot }) {
  const saved = organizationForm(snapshot.realm);
  const [form, setForm] = useState(saved);
  const [done, setDone] = useState('');
  const action = useAction();
  const set = <K extends keyof OrganizationForm>(name: K, value: OrganizationForm[K]) => {
    setDone('');
    setForm({ ...form, [name]: value });
  };
  const changes = organizationChanges(saved, form);
  const changed = Object.keys(changes).length > 0;

  const submit = async (event: Event) => {
    event.preventDefault();
    if (changed && (await action.run(() => api.patch('/realm', changes)))) setDone('Saved');
  };

  return (
    <form onSubmit={submit} class="panel-form">
      <label>
        Organization name
        <input type="text" value={form.name} onInput={(event) => set('name', event.currentTarget.value)} />
      </label>
      <label>
        Organization description
        <textarea rows={3} value={form.description} onInput={(event) => set('description', event.currentTarget.value)} />
      </label>
      <label class="panel-check">
        <input
          type="checkbox"
          checked={form.allow_message_editing}
          onChange={(event) => set('allow_message_editing', event.currentTarget.checked)}
        />
        Allow message editing
      </label>
      <label>
        Message edit limit (seconds, blank for none)
        <input
          type="text"
          inputMode="numeric"
          value={form.message_content_edit_limit_seconds}
          onInput={(event) => set('message_content_edit_limit_seconds', event.currentTarget.value)}
        />
      </label>
      <label>
        Waiting period for full members (days)
        <input
          type="text"
          inputMode="numeric"
          value={form.waiting_period_threshold}
          onInput={(event) => set('waiting_period_threshold', event.currentTarget.value)}
        />
      </label>
      {POLICY_FIELDS.map(({ name, label }) => (
        <label key={name}>
          {label}
          <select value={String(form[name])} onChange={(event) => set(name, Number(event.currentTarget.value))}>
            {MESSAGE_POLICIES.map((policy) => (
              <option key={policy.value} value={String(policy.value)}>
                {policy.label}
              </option>
            ))}
          </select>
        </label>
      ))}
      <ErrorAlert error={action.error} />
      {done && <p role="status">{done}</p>}
      <div class="panel-buttons">
        <button type="submit" disabled={!changed || action.busy}>
          Save changes
        </button>
        <button type="button" disabled={!changed} onClick={() => setForm(saved)}>
          Discard
        </button>
      </div>
    </form>
  );
}
