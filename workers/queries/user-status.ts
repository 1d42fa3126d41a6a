import type { Realm } from '../realm';
import { versionedCache } from './cache-version';
import { userSettings } from './user-settings';

/*
 * User statuses (SPEC User status). `away` is not stored: it is the inverse of the user's
 * `presence_enabled` setting (feature level 148), so both always agree.
 */

export interface UserStatusRow {
  user_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

/** The status object of register's `user_status` and GET /users/{user_id}/status: only what is set. */
export function statusObject(row: UserStatusRow | undefined, presenceEnabled: boolean): Record<string, unknown> {
  const status: Record<string, unknown> = {};
  if (!presenceEnabled) status['away'] = true;
  if (row && row.status_text !== '') status['status_text'] = row.status_text;
  if (row && row.emoji_name !== '') {
    status['emoji_name'] = row.emoji_name;
    status['emoji_code'] = row.emoji_code;
    status['reaction_type'] = row.reaction_type;
  }
  return status;
}

export function statusRow(realm: Realm, userId: number): UserStatusRow | undefined {
  return realm
    .rows<UserStatusRow, [number]>('SELECT user_id, status_text, emoji_name, emoji_code, reaction_type FROM user_status WHERE user_id = ?')
    .get(userId);
}

/**
 * Who is active, and who of them has presence_enabled off (shown away), behind cache_version
 * with the users table: reading every user's settings was 4 ms of each register in a realm of
 * 5,000 people, while the statuses themselves are few.
 */
const activeAndAway = versionedCache((realm: Realm) => {
  const users = realm.rows<{ id: number; settings: string }, []>('SELECT id, settings FROM users WHERE is_active = 1').all();
  const away = new Set<number>();
  for (const user of users) if (!userSettings(user).presence_enabled) away.add(user.id);
  return { active: new Set(users.map((user) => user.id)), away };
});

/** register's `user_status`: keyed by user ID, only active users with something to show. */
export function userStatusState(realm: Realm): Record<string, Record<string, unknown>> {
  const { active, away } = activeAndAway(realm);
  const state: Record<string, Record<string, unknown>> = {};
  for (const userId of away) state[String(userId)] = statusObject(undefined, false);
  const rows = realm.rows<UserStatusRow, []>('SELECT user_id, status_text, emoji_name, emoji_code, reaction_type FROM user_status').all();
  for (const row of rows) {
    if (!active.has(row.user_id)) continue;
    const status = statusObject(row, !away.has(row.user_id));
    if (Object.keys(status).length > 0) state[String(row.user_id)] = status;
  }
  return state;
}
