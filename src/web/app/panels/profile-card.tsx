/**
 * A person's card, opened from a sender's name or avatar: who they are (role, email, status,
 * presence, local time) and a link to a direct conversation with them. Escape closes it.
 */
import type { ProfileCardProps } from './contracts';
import { HASH_PREFIX } from './contracts';
import { StatusLine } from './people-list';
import { PRESENCE_LABELS, presenceState, serverNow } from './presence';
import { roleLabel } from './roles';
import { Modal } from './ui';

/** The time where they are, or null when their timezone is unknown to this browser. */
function localTime(timezone: string, twentyFourHour: boolean): string | null {
  if (timezone === '') return null;
  try {
    return new Date().toLocaleTimeString([], { timeZone: timezone, hour: 'numeric', minute: '2-digit', hour12: !twentyFourHour });
  } catch {
    return null;
  }
}

export function ProfileCard({ snapshot, userId, fallbackName, onClose }: ProfileCardProps) {
  const user = snapshot.users.get(userId);
  const name = user?.full_name ?? fallbackName;
  const status = snapshot.userStatus.get(userId);
  const time = user ? localTime(user.timezone, snapshot.userSettings['twenty_four_hour_time'] === true) : null;
  const presence = PRESENCE_LABELS[presenceState(snapshot.presences.get(userId), serverNow(snapshot))];
  const avatar = user?.avatar_url?.startsWith('/') && !user.avatar_url.startsWith('//') ? user.avatar_url : null;
  return (
    <Modal title={name} onClose={onClose} class="profile-card">
      <div class="profile-card-head">
        {avatar && <img class="profile-card-avatar" src={avatar} alt="" width={64} height={64} />}
        <dl class="profile-card-facts">
          {user && (
            <>
              <dt>Role</dt>
              <dd>{user.is_bot ? 'Bot' : roleLabel(user.role)}</dd>
              <dt>Email</dt>
              <dd>{user.delivery_email ?? user.email}</dd>
            </>
          )}
          <dt>Presence</dt>
          <dd>{user?.is_active === false ? 'Deactivated' : presence}</dd>
          {time !== null && (
            <>
              <dt>Local time</dt>
              <dd>{time}</dd>
            </>
          )}
          {status && (status.status_text || status.emoji_name) && (
            <>
              <dt>Status</dt>
              <dd>
                <StatusLine snapshot={snapshot} userId={userId} />
              </dd>
            </>
          )}
        </dl>
      </div>
      {userId !== snapshot.me.user_id && (
        <a class="profile-card-link" href={`${HASH_PREFIX}dm/${userId}`} onClick={onClose}>
          Send a direct message
        </a>
      )}
    </Modal>
  );
}
