/**
 * Personal settings › Avatar: upload a picture (POST /users/me/avatar) or go back to the
 * default (DELETE /users/me/avatar). The new `avatar_url` comes back as a realm_user event,
 * so every open page shows it.
 */
import { useRef } from 'preact/hooks';
import { api, postFile } from '../../common/api';
import type { ChatSnapshot } from '../../common/types';
import { ErrorAlert, useAction } from './ui';

export function AvatarForm({ snapshot }: { snapshot: ChatSnapshot }) {
  const action = useAction();
  const input = useRef<HTMLInputElement>(null);
  const url = snapshot.me.avatar_url;
  // Only avatars served here: the page's CSP admits no other origin's images.
  const shown = url?.startsWith('/') && !url.startsWith('//') ? url : null;
  const upload = (file: File | undefined) => {
    if (!file) return;
    void action
      .run(() => postFile('/users/me/avatar', file))
      .then(() => {
        if (input.current) input.current.value = '';
      });
  };
  return (
    <fieldset class="panel-form avatar-form">
      <legend>Avatar</legend>
      {shown && <img class="avatar-preview" src={shown} alt="Your avatar" width={64} height={64} />}
      <label>
        Upload avatar
        <input
          ref={input}
          type="file"
          accept="image/*"
          disabled={action.busy}
          onChange={(event) => upload(event.currentTarget.files?.[0])}
        />
      </label>
      <button type="button" disabled={action.busy} onClick={() => void action.run(() => api.delete('/users/me/avatar'))}>
        Use the default avatar
      </button>
      <ErrorAlert error={action.error} />
    </fieldset>
  );
}
