/**
 * Who is around, for the people list: presence ages and the list's order. Pure, so the rules
 * are unit-tested without a DOM.
 */
import type { ChatSnapshot, Presence, User } from '../../common/types';

export type PresenceState = 'active' | 'idle' | 'offline';

/** A client reports presence about once a minute; two missed reports mean the person left. */
export const PRESENCE_WINDOW_S = 140;

export const PRESENCE_LABELS: Readonly<Record<PresenceState, string>> = { active: 'Active', idle: 'Idle', offline: 'Offline' };

/** The server's clock now, in seconds, from ours and the offset the core measured. */
export function serverNow(snapshot: Pick<ChatSnapshot, 'serverTimeOffset'>, nowMs: number = Date.now()): number {
  return nowMs / 1000 + snapshot.serverTimeOffset;
}

export function presenceState(presence: Presence | undefined, now: number): PresenceState {
  if (!presence) return 'offline';
  if (now - presence.active_timestamp <= PRESENCE_WINDOW_S) return 'active';
  if (now - presence.idle_timestamp <= PRESENCE_WINDOW_S) return 'idle';
  return 'offline';
}

export interface PersonRow {
  user: User;
  presence: PresenceState;
}

export interface PeopleGroups {
  humans: PersonRow[];
  bots: PersonRow[];
}

const byName = (a: PersonRow, b: PersonRow) => a.user.full_name.localeCompare(b.user.full_name) || a.user.user_id - b.user.user_id;

/**
 * The list's order: active humans first, then the other humans, each run by name; bots in a
 * group of their own; deactivated users not at all.
 */
export function peopleGroups(snapshot: Pick<ChatSnapshot, 'users' | 'presences'>, now: number): PeopleGroups {
  const humans: PersonRow[] = [];
  const bots: PersonRow[] = [];
  for (const user of snapshot.users.values()) {
    // Register's user objects may leave `is_active` out; only an explicit false is deactivated.
    if (user.is_active === false) continue;
    const row = { user, presence: presenceState(snapshot.presences.get(user.user_id), now) };
    (user.is_bot ? bots : humans).push(row);
  }
  const active = humans.filter((row) => row.presence === 'active').sort(byName);
  const others = humans.filter((row) => row.presence !== 'active').sort(byName);
  return { humans: [...active, ...others], bots: bots.sort(byName) };
}
