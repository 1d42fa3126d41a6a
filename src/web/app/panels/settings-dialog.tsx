/** Personal settings: each change is one `PATCH /settings` (SPEC names), whose event updates the snapshot. */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, type ParamValue } from '../../common/api';
import { AvatarForm } from './avatar-form';
import type { DialogProps } from './contracts';
import { ErrorAlert, Modal, Toggle, useAction, type Action } from './ui';

/** SPEC PATCH /settings color_scheme. */
const COLOR_SCHEMES = [
  { value: 1, label: 'Automatic' },
  { value: 2, label: 'Dark' },
  { value: 3, label: 'Light' },
];

/** The server lists its emoji sets in `emojiset_choices`; these are SPEC's, should it not. */
const DEFAULT_EMOJISETS = [
  { key: 'vendora', text: 'Modern' },
  { key: 'vendora-blob', text: 'Classic' },
  { key: 'vendorb', text: 'Alternative' },
  { key: 'text', text: 'Plain text' },
];

function emojisetChoices(settings: Readonly<Record<string, unknown>>): { key: string; text: string }[] {
  const listed = settings['emojiset_choices'];
  if (!Array.isArray(listed)) return DEFAULT_EMOJISETS;
  const valid = listed.filter(
    (choice): choice is { key: string; text: string } =>
      typeof choice === 'object' &&
      choice !== null &&
      typeof (choice as { key?: unknown }).key === 'string' &&
      typeof (choice as { text?: unknown }).text === 'string',
  );
  return valid.length > 0 ? valid : DEFAULT_EMOJISETS;
}

function timeZones(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return current && !zones.includes(current) ? [current, ...zones] : zones;
}

export function SettingsDialog({ snapshot, onClose }: DialogProps) {
  // A changed control shows its new value until the server's event updates the snapshot
  // (or the request fails), rather than springing back meanwhile.
  const [pending, setPending] = useState<Readonly<Record<string, ParamValue>>>({});
  useEffect(() => setPending({}), [snapshot.userSettings]);
  const settings: Readonly<Record<string, unknown>> = { ...snapshot.userSettings, ...pending };
  const [fullName, setFullName] = useState(snapshot.me.full_name);
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [passwordDone, setPasswordDone] = useState('');
  const nameAction = useAction();
  const passwordAction = useAction();
  const displayAction = useAction();
  // "Saved" after each change the server took, cleared when the next one starts.
  const [saved, setSaved] = useState(false);
  const saving = async (action: Action, request: () => Promise<unknown>) => {
    setSaved(false);
    const done = await action.run(request);
    setSaved(done);
    return done;
  };
  const timezone = typeof settings['timezone'] === 'string' ? settings['timezone'] : snapshot.me.timezone;
  const zones = useMemo(() => timeZones(timezone), [timezone]);

  const save = async (name: string, value: ParamValue) => {
    setPending((before) => ({ ...before, [name]: value }));
    if (!(await saving(displayAction, () => api.patch('/settings', { [name]: value })))) {
      setPending(({ [name]: _failed, ...rest }) => rest);
    }
  };

  const saveName = async (event: Event) => {
    event.preventDefault();
    await saving(nameAction, () => api.patch('/settings', { full_name: fullName.trim() }));
  };

  const savePassword = async (event: Event) => {
    event.preventDefault();
    setPasswordDone('');
    if (await passwordAction.run(() => api.patch('/settings', { old_password: oldPassword, new_password: newPassword }))) {
      setOldPassword('');
      setNewPassword('');
      setPasswordDone('Password changed');
    }
  };

  return (
    <Modal title="Personal settings" onClose={onClose} class="settings-dialog">
      <p role="status" class="panel-saved">
        {saved ? 'Saved' : ''}
      </p>
      <form onSubmit={saveName} class="panel-form">
        <label>
          Full name
          <input type="text" autocomplete="name" value={fullName} onInput={(event) => setFullName(event.currentTarget.value)} />
        </label>
        <ErrorAlert error={nameAction.error} />
        <div class="panel-buttons">
          <button type="submit" disabled={nameAction.busy || fullName.trim() === snapshot.me.full_name}>
            Save name
          </button>
        </div>
      </form>

      <form onSubmit={savePassword} class="panel-form">
        <fieldset>
          <legend>Change password</legend>
          {/* For password managers, which file a new password under the account's name. */}
          <input type="email" autocomplete="username" value={snapshot.me.delivery_email ?? snapshot.me.email} readOnly hidden />
          <label>
            Old password
            <input
              type="password"
              autocomplete="current-password"
              value={oldPassword}
              onInput={(event) => setOldPassword(event.currentTarget.value)}
            />
          </label>
          <label>
            New password
            <input
              type="password"
              autocomplete="new-password"
              value={newPassword}
              onInput={(event) => setNewPassword(event.currentTarget.value)}
            />
          </label>
          <ErrorAlert error={passwordAction.error} />
          {passwordDone && <p role="status">{passwordDone}</p>}
          <div class="panel-buttons">
            <button type="submit" disabled={passwordAction.busy || !oldPassword || !newPassword}>
              Change password
            </button>
          </div>
        </fieldset>
      </form>

      <AvatarForm snapshot={snapshot} />

      <fieldset class="panel-form">
        <legend>Display</legend>
        <label>
          Time zone
          <select value={timezone} onChange={(event) => void save('timezone', event.currentTarget.value)}>
            {!timezone && <option value="">Not set</option>}
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </label>
        <Toggle
          label="24-hour time"
          checked={settings['twenty_four_hour_time'] === true}
          onChange={(value) => void save('twenty_four_hour_time', value)}
        />
        <Toggle
          label="Enter sends the message"
          checked={settings['enter_sends'] === true}
          onChange={(value) => void save('enter_sends', value)}
        />
        <label>
          Emoji set
          <select value={String(settings['emojiset'] ?? '')} onChange={(event) => void save('emojiset', event.currentTarget.value)}>
            {emojisetChoices(settings).map((choice) => (
              <option key={choice.key} value={choice.key}>
                {choice.text}
              </option>
            ))}
          </select>
        </label>
        <label>
          Color scheme
          <select
            value={String(settings['color_scheme'] ?? 1)}
            onChange={(event) => void save('color_scheme', Number(event.currentTarget.value))}
          >
            {COLOR_SCHEMES.map((scheme) => (
              <option key={scheme.value} value={String(scheme.value)}>
                {scheme.label}
              </option>
            ))}
          </select>
        </label>
        <ErrorAlert error={displayAction.error} />
      </fieldset>
    </Modal>
  );
}
