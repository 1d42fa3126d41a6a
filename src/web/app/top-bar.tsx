/** The top bar: the organization's name, the panels' dialogs, and Log out. */
import { useState } from 'preact/hooks';
import { csrfToken } from '../common/api';
import type { ChatSnapshot } from '../common/types';
import { AdminDialog, SettingsDialog, StatusDialog, StreamsDialog } from './panels';
import { signIn } from './store-deps';

type DialogName = 'settings' | 'status' | 'streams' | 'admin';

async function logOut(): Promise<void> {
  try {
    await fetch('/logout', { method: 'POST', credentials: 'same-origin', headers: { 'X-CSRF-Token': csrfToken() } });
  } finally {
    signIn();
  }
}

export function TopBar({ snapshot, realmName }: { snapshot: ChatSnapshot | null; realmName: string }) {
  const [open, setOpen] = useState<DialogName | null>(null);
  const close = () => setOpen(null);
  const isAdmin = snapshot?.me.is_admin === true || snapshot?.me.is_owner === true;
  return (
    <header class="top-bar">
      <a class="realm-name" href="#narrow/all">
        {realmName}
      </a>
      <div class="top-actions">
        <button type="button" onClick={() => setOpen('streams')} disabled={!snapshot}>
          Streams
        </button>
        <button type="button" onClick={() => setOpen('status')} disabled={!snapshot}>
          Status
        </button>
        <button type="button" onClick={() => setOpen('settings')} disabled={!snapshot}>
          Settings
        </button>
        {isAdmin && (
          <button type="button" onClick={() => setOpen('admin')}>
            Administration
          </button>
        )}
        <button type="button" onClick={() => void logOut()}>
          Log out
        </button>
      </div>
      {snapshot && open === 'settings' && <SettingsDialog snapshot={snapshot} onClose={close} />}
      {snapshot && open === 'status' && <StatusDialog snapshot={snapshot} onClose={close} />}
      {snapshot && open === 'streams' && <StreamsDialog snapshot={snapshot} onClose={close} />}
      {snapshot && open === 'admin' && isAdmin && <AdminDialog snapshot={snapshot} onClose={close} />}
    </header>
  );
}
