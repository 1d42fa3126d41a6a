import { isAdminRole, ROLE, systemGroupNameForRole } from '../lib/roles';
import type { Realm } from '../realm';
import { activeSubscriptionsOf, canSeeStream, type StreamRow } from './streams';
import { userById, type UserRow } from './users';
import { ALL_USER_MESSAGES } from './user-message-rows';

/*
 * Reads behind the account actions (i9-accounts): owners, a user's bots, role groups, what a
 * role may see, muting.
 */

/** Active human owners: the "last owner" rules count only these (bots never count). */
export function activeHumanOwnerCount(realm: Realm): number {
  return realm.oneRow<{ n: number }, [number]>(
    'SELECT count(*) AS n FROM users WHERE role = ? AND is_active = 1 AND is_bot = 0',
    ROLE.OWNER,
  ).n;
}

/** Whether an account other than the server's own bots is active besides `userId` (DELETE /users/me). */
export function hasOtherActiveAccount(realm: Realm, userId: number): boolean {
  // Stops at the first match: no count over the whole table.
  return realm.stmt('SELECT 1 FROM users WHERE is_active = 1 AND is_system_bot = 0 AND id != ? LIMIT 1').get(userId) !== undefined;
}

/** The server's own bots (the notification bot) are no account of the API. */
export function isSystemBot(realm: Realm, userId: number): boolean {
  const row = realm.rows<{ is_system_bot: number }, [number]>('SELECT is_system_bot FROM users WHERE id = ?').get(userId);
  return row?.is_system_bot === 1;
}

/** Whether an active account goes by `fullName` (bot names are unique among active accounts). */
export function activeUserNamed(realm: Realm, fullName: string): boolean {
  return realm.stmt('SELECT 1 FROM users WHERE full_name = ? AND is_active = 1 LIMIT 1').get(fullName) !== undefined;
}

/** The bots a user owns, active ones only when `activeOnly`. */
export function botsOwnedBy(realm: Realm, ownerId: number, activeOnly: boolean): UserRow[] {
  const sql = activeOnly
    ? 'SELECT id FROM users WHERE bot_owner_id = ? AND is_active = 1 ORDER BY date_joined, id'
    : 'SELECT id FROM users WHERE bot_owner_id = ? ORDER BY date_joined, id';
  const rows = realm.rows<{ id: number }, [number]>(sql).all(ownerId);
  return rows.map((row) => userById(realm, row.id)).filter((user): user is UserRow => user !== undefined);
}

/** The system group a role's users belong to directly (lib/roles.ts SYSTEM_GROUPS). */
export function roleGroupId(realm: Realm, role: number): number | null {
  const name = systemGroupNameForRole(role);
  if (name === null) return null;
  const row = realm
    .rows<{ id: number }, [string]>('SELECT id FROM user_groups WHERE name = ? COLLATE NOCASE AND is_system_group = 1')
    .get(name);
  return row?.id ?? null;
}

/** Who administers a bot (api-notes §d realm_bot): its owner and the active administrators. */
export function botAdministratorIds(realm: Realm, bot: UserRow): number[] {
  const admins = realm
    .rows<{ id: number }, [number]>('SELECT id FROM users WHERE role <= ? AND is_active = 1 AND is_bot = 0')
    .all(ROLE.ADMINISTRATOR)
    .map((row) => row.id);
  const ids = new Set(admins);
  if (bot.bot_owner_id !== null) {
    const owner = userById(realm, bot.bot_owner_id);
    if (owner?.is_active === 1) ids.add(owner.id);
  }
  return [...ids];
}

/** May `actor` administer `target` (the public API's rule): themselves, an admin, or a bot's owner. */
export function canAdministerUser(actor: UserRow, target: UserRow): boolean {
  return actor.id === target.id || isAdminRole(actor.role) || (target.is_bot === 1 && target.bot_owner_id === actor.id);
}

/** The live streams a user with `role` may see (queries/streams canSeeStream), by id. */
export function visibleStreamsForRole(realm: Realm, userId: number, role: number): Map<number, StreamRow> {
  const streams = realm.rows<StreamRow, []>('SELECT * FROM streams WHERE deactivated = 0').all();
  const subscribed = activeSubscriptionsOf(realm, userId);
  return new Map(streams.filter((stream) => canSeeStream(role, subscribed.has(stream.id), stream)).map((stream) => [stream.id, stream]));
}

/** The streams a user is subscribed to (active rows), for peer events on reactivation. */
export function subscribedStreamIds(realm: Realm, userId: number): number[] {
  return realm
    .rows<{ stream_id: number }, [number]>(
      'SELECT s.stream_id FROM subscriptions s JOIN streams t ON t.id = s.stream_id WHERE s.user_id = ? AND s.active = 1 AND t.deactivated = 0',
    )
    .all(userId)
    .map((row) => row.stream_id);
}

/** `muted_users` (api-notes §e, §d): whom a user muted, and since when. */
export function mutedUsers(realm: Realm, userId: number): { id: number; timestamp: number }[] {
  return realm
    .rows<{ id: number; timestamp: number }, [number]>(
      'SELECT muted_user_id AS id, date_muted AS timestamp FROM muted_users WHERE user_id = ? ORDER BY date_muted, muted_user_id',
    )
    .all(userId);
}

export function hasMuted(realm: Realm, userId: number, mutedUserId: number): boolean {
  return realm.stmt('SELECT 1 FROM muted_users WHERE user_id = ? AND muted_user_id = ?').get(userId, mutedUserId) !== undefined;
}

/** The users who muted a sender: their copies of the sender's new messages arrive read. */
export function usersWhoMuted(realm: Realm, senderId: number): Set<number> {
  return new Set(
    realm
      .rows<{ user_id: number }, [number]>('SELECT user_id FROM muted_users WHERE muted_user_id = ?')
      .all(senderId)
      .map((row) => row.user_id),
  );
}

/** The unread messages a user has from a sender (muting marks them read). */
export function unreadMessageIdsFrom(realm: Realm, userId: number, senderId: number): number[] {
  return realm
    .rows<{ id: number }, [number, number]>(
      `SELECT um.message_id AS id FROM ${ALL_USER_MESSAGES} um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = ? AND m.sender_id = ? AND um.flags & 1 = 0 ORDER BY um.message_id`,
    )
    .all(userId, senderId)
    .map((row) => row.id);
}
