import { errors } from '../lib/errors';
import { epochSeconds } from '../lib/clock';
import { hasMuted, mutedUsers, unreadMessageIdsFrom } from '../queries/accounts';
import { userById, type UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { applyFlagChangeTxn } from './flags';

/** openapi mute-user: yourself first, then unknown users and bots ("No such user"); deactivated ones may be muted. */
function checkMutable(realm: Realm, user: UserRow, mutedUserId: number): UserRow {
  if (mutedUserId === user.id) throw errors.cannotMuteSelf();
  const target = userById(realm, mutedUserId);
  if (!target || target.is_bot === 1) throw errors.noSuchUser();
  return target;
}

function publishMutedUsers(tx: Txn, userId: number): void {
  tx.publish({ type: 'muted_users', muted_users: mutedUsers(tx.realm, userId) }, [userId]);
}

/**
 * POST /users/me/muted_users/{muted_user_id}: the muted_users event, then the muted user's
 * unread messages marked read for the muter (openapi mute-user: "immediately mark all
 * messages sent by the muted user as read").
 */
export function doMuteUser(realm: Realm, user: UserRow, mutedUserId: number): Promise<void> {
  checkMutable(realm, user, mutedUserId);
  return realm.transact((tx) => {
    if (hasMuted(tx.realm, user.id, mutedUserId)) throw errors.userAlreadyMuted();
    tx.realm
      .stmt('INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, ?)')
      .run(user.id, mutedUserId, epochSeconds(tx.realm.clock));
    publishMutedUsers(tx, user.id);
    const unread = unreadMessageIdsFrom(tx.realm, user.id, mutedUserId);
    if (unread.length > 0) applyFlagChangeTxn(tx, user, { op: 'add', flag: 'read' }, unread);
  });
}

/** DELETE /users/me/muted_users/{muted_user_id} (openapi unmute-user). */
export function doUnmuteUser(realm: Realm, user: UserRow, mutedUserId: number): Promise<void> {
  const target = userById(realm, mutedUserId);
  if (!target || target.is_bot === 1) throw errors.noSuchUser();
  return realm.transact((tx) => {
    if (!hasMuted(tx.realm, user.id, mutedUserId)) throw errors.userNotMuted();
    tx.realm.stmt('DELETE FROM muted_users WHERE user_id = ? AND muted_user_id = ?').run(user.id, mutedUserId);
    publishMutedUsers(tx, user.id);
  });
}
