/** Administration (administrators and owners): users and roles, streams, organization settings, linkifiers, custom emoji. */
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api } from '../../common/api';
import type { ChatSnapshot, User } from '../../common/types';
import { AddPersonForm } from './admin-add-person';
import { LinkifiersTab, CustomEmojiTab } from './admin-extras';
import { StreamsTab } from './admin-streams';
import type { DialogProps } from './contracts';
import { OrganizationTab } from './admin-organization';
import { assignableRoles, isAdministrator, roleLabel, ROLE } from './roles';
import { ErrorAlert, Modal, useAction } from './ui';

const TABS = ['Users', 'Streams', 'Organization', 'Linkifiers', 'Custom emoji'] as const;
type Tab = (typeof TABS)[number];

/** Register's user objects may leave `is_active` out; only an explicit false is deactivated. */
export function isDeactivated(user: Pick<User, 'is_active'>): boolean {
  return user.is_active === false;
}

/** Active people first, then by name; the page may know deactivated ones too. */
export function adminUserOrder(users: Iterable<User>): User[] {
  return [...users].sort(
    (a, b) => Number(isDeactivated(a)) - Number(isDeactivated(b)) || a.full_name.localeCompare(b.full_name) || a.user_id - b.user_id,
  );
}

function UserRow({ snapshot, user }: { snapshot: ChatSnapshot; user: User }) {
  const action = useAction();
  // The chosen role shows until the server's event brings it (or the change fails).
  const [pendingRole, setPendingRole] = useState<number | null>(null);
  // Deactivating signs the person out everywhere: it is asked for twice.
  const [confirming, setConfirming] = useState(false);
  useEffect(() => setPendingRole(null), [user.role]);
  const changeRole = async (role: number) => {
    setPendingRole(role);
    if (!(await action.run(() => api.patch(`/users/${user.user_id}`, { role })))) setPendingRole(null);
  };
  const isMe = user.user_id === snapshot.me.user_id;
  // Only owners change owners; nobody changes themselves here, so an organization keeps its owner.
  const locked = isMe || (user.role === ROLE.OWNER && snapshot.me.role !== ROLE.OWNER);
  const roles = locked ? [{ value: user.role, label: roleLabel(user.role) }] : assignableRoles(snapshot.me);
  return (
    <tr class={isDeactivated(user) ? 'admin-inactive' : ''}>
      <td>
        {user.full_name}
        {user.is_bot && <span class="panel-muted"> (bot)</span>}
      </td>
      <td class="panel-muted">{user.delivery_email ?? user.email}</td>
      <td>
        <select
          aria-label={`Role of ${user.full_name}`}
          value={String(pendingRole ?? user.role)}
          disabled={locked || action.busy}
          onChange={(event) => void changeRole(Number(event.currentTarget.value))}
        >
          {roles.map((role) => (
            <option key={role.value} value={String(role.value)}>
              {role.label}
            </option>
          ))}
        </select>
      </td>
      <td>
        {!isMe &&
          (!isDeactivated(user) ? (
            <button type="button" disabled={locked || action.busy || confirming} onClick={() => setConfirming(true)}>
              Deactivate
            </button>
          ) : (
            <button
              type="button"
              disabled={action.busy}
              onClick={() => void action.run(() => api.post(`/users/${user.user_id}/reactivate`))}
            >
              Reactivate
            </button>
          ))}
        {confirming && (
          <div role="alertdialog" aria-label={`Deactivate ${user.full_name}?`} class="panel-confirm">
            <p>Deactivate {user.full_name}? They are signed out and can no longer sign in.</p>
            <button
              type="button"
              disabled={action.busy}
              onClick={() => {
                setConfirming(false);
                void action.run(() => api.delete(`/users/${user.user_id}`));
              }}
            >
              Deactivate
            </button>
            <button type="button" autoFocus onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        )}
        <ErrorAlert error={action.error} />
      </td>
    </tr>
  );
}

function UsersTab({ snapshot }: { snapshot: ChatSnapshot }) {
  const [filter, setFilter] = useState('');
  const wanted = filter.trim().toLowerCase();
  const users = adminUserOrder(snapshot.users.values()).filter(
    (user) =>
      wanted === '' || user.full_name.toLowerCase().includes(wanted) || (user.delivery_email ?? user.email).toLowerCase().includes(wanted),
  );
  return (
    <>
      <AddPersonForm snapshot={snapshot} />
      <label>
        Filter users
        <input type="search" value={filter} onInput={(event) => setFilter(event.currentTarget.value)} />
      </label>
      <table class="admin-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Account</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <UserRow key={user.user_id} snapshot={snapshot} user={user} />
          ))}
        </tbody>
      </table>
    </>
  );
}

export function AdminDialog({ snapshot, onClose }: DialogProps) {
  const [tab, setTab] = useState<Tab>('Users');
  const tabList = useRef<HTMLDivElement>(null);
  const baseId = useId();
  const tabId = (name: Tab) => `${baseId}-tab-${TABS.indexOf(name)}`;
  const panelId = `${baseId}-panel`;

  // Arrow keys move between tabs and select them (the tabs pattern with automatic activation).
  const onKeyDown = (event: KeyboardEvent) => {
    const index = TABS.indexOf(tab);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = TABS[(target + TABS.length) % TABS.length] ?? 'Users';
    setTab(next);
    tabList.current?.querySelector<HTMLButtonElement>(`#${CSS.escape(tabId(next))}`)?.focus();
  };

  if (!isAdministrator(snapshot.me)) {
    return (
      <Modal title="Administration" onClose={onClose}>
        <p>Only administrators can change the organization.</p>
      </Modal>
    );
  }

  return (
    <Modal title="Administration" onClose={onClose} class="admin-dialog">
      <div ref={tabList} role="tablist" aria-label="Administration" class="panel-tabs" onKeyDown={onKeyDown}>
        {TABS.map((name) => (
          <button
            key={name}
            id={tabId(name)}
            type="button"
            role="tab"
            aria-selected={tab === name}
            aria-controls={panelId}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
          >
            {name}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(tab)} class="panel-tabpanel">
        {tab === 'Users' && <UsersTab snapshot={snapshot} />}
        {tab === 'Streams' && <StreamsTab snapshot={snapshot} />}
        {tab === 'Organization' && <OrganizationTab snapshot={snapshot} />}
        {tab === 'Linkifiers' && <LinkifiersTab snapshot={snapshot} />}
        {tab === 'Custom emoji' && <CustomEmojiTab snapshot={snapshot} />}
      </div>
    </Modal>
  );
}
