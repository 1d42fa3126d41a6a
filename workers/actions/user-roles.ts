import { errors } from '../lib/errors';
import { ROLE } from '../lib/roles';
import { activeHumanOwnerCount, botAdministratorIds, isSystemBot, roleGroupId, visibleStreamsForRole } from '../queries/accounts';
import { streamObject } from '../queries/streams';
import { activeUserIds, isAdmin, userById, type UserRow, storedUser } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { checkFullName } from './users';
import { checkProfileData, writeProfileDataTxn, type ProfileDataUpdate } from './profile-data';
import { syncFullMembersTxn } from './full-members';

const ROLES: readonly number[] = Object.values(ROLE);

export interface TargetOptions {
  allowDeactivated: boolean;
  allowBots: boolean;
}

/**
 * The public API's lookup of another account by ID: unknown IDs and the server's own bots are
 * "No such user", bots too unless allowed, a deactivated account unless allowed.
 */
export function checkTargetUser(realm: Realm, userId: number, options: TargetOptions): UserRow {
  const target = userById(realm, userId);
  if (!target || isSystemBot(realm, userId)) throw errors.noSuchUser();
  if (target.is_bot === 1 && !options.allowBots) throw errors.noSuchUser();
  if (target.is_active === 0 && !options.allowDeactivated) throw errors.userIsDeactivated();
  return target;
}

/** A human owner alone among the active ones: the last owner rules (openapi update-user, deactivate-user). */
export function isLastOwner(realm: Realm, user: UserRow): boolean {
  return user.role === ROLE.OWNER && user.is_bot === 0 && user.is_active === 1 && activeHumanOwnerCount(realm) === 1;
}

/**
 * Who may change a role (openapi update-user `role`): granting or removing the owner role
 * needs an owner, any other change an administrator; the only owner keeps the role.
 */
export function checkRoleChange(realm: Realm, actor: UserRow, target: UserRow, role: number): void {
  if (!ROLES.includes(role)) throw errors.invalidRole();
  if (role === target.role) return;
  if ((role === ROLE.OWNER || target.role === ROLE.OWNER) && actor.role !== ROLE.OWNER) throw errors.mustBeOwner();
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
  if (target.role === ROLE.OWNER && isLastOwner(realm, target)) throw errors.lastOwnerDemotion();
}

/**
 * Changes a role inside the caller's transaction: the role system groups follow (their
 * user_group member events), everyone hears realm_user update `role`, and the user gets the
 * stream create/delete events for the streams the new role may or may no longer see.
 */
export function changeRoleTxn(tx: Txn, target: UserRow, role: number): void {
  const realm = tx.realm;
  const seenBefore = visibleStreamsForRole(realm, target.id, target.role);
  const oldGroup = roleGroupId(realm, target.role);
  const newGroup = roleGroupId(realm, role);
  realm.stmt('UPDATE users SET role = ? WHERE id = ?').run(role, target.id);
  const everyone = activeUserIds(realm);
  tx.publish({ type: 'realm_user', op: 'update', person: { user_id: target.id, role } }, everyone);
  if (oldGroup !== null && oldGroup !== newGroup) {
    realm.stmt('DELETE FROM user_group_members WHERE group_id = ? AND user_id = ?').run(oldGroup, target.id);
    tx.publish({ type: 'user_group', op: 'remove_members', group_id: oldGroup, user_ids: [target.id] }, everyone);
  }
  if (newGroup !== null && oldGroup !== newGroup) {
    realm.stmt('INSERT OR IGNORE INTO user_group_members (group_id, user_id) VALUES (?, ?)').run(newGroup, target.id);
    tx.publish({ type: 'user_group', op: 'add_members', group_id: newGroup, user_ids: [target.id] }, everyone);
  }
  // Only members are direct full members; a role change moves the user in or out.
  syncFullMembersTxn(tx);
  if (target.is_active === 0) return;
  const seenAfter = visibleStreamsForRole(realm, target.id, role);
  const lost = [...seenBefore.values()].filter((stream) => !seenAfter.has(stream.id));
  const gained = [...seenAfter.values()].filter((stream) => !seenBefore.has(stream.id));
  if (lost.length > 0) tx.publish({ type: 'stream', op: 'delete', streams: lost.map((s) => streamObject(s)) }, [target.id]);
  if (gained.length > 0) tx.publish({ type: 'stream', op: 'create', streams: gained.map((s) => streamObject(s)) }, [target.id]);
}

/** Renames inside the caller's transaction: realm_user update to everyone, realm_bot update for bots. */
export function renameTxn(tx: Txn, target: UserRow, fullName: string): void {
  tx.realm.stmt('UPDATE users SET full_name = ? WHERE id = ?').run(fullName, target.id);
  tx.publish({ type: 'realm_user', op: 'update', person: { user_id: target.id, full_name: fullName } }, activeUserIds(tx.realm));
  if (target.is_bot === 1) {
    tx.publish(
      { type: 'realm_bot', op: 'update', bot: { user_id: target.id, full_name: fullName } },
      botAdministratorIds(tx.realm, target),
    );
  }
}

export interface UserUpdate {
  fullName?: string | undefined;
  role?: number | undefined;
  profileData?: ProfileDataUpdate[] | undefined;
}

/** PATCH /users/{user_id} (openapi update-user; administrators). */
export function doUpdateUser(realm: Realm, actor: UserRow, userId: number, update: UserUpdate): Promise<void> {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
  const target = checkTargetUser(realm, userId, { allowDeactivated: true, allowBots: true });
  if (update.role !== undefined) checkRoleChange(realm, actor, target, update.role);
  // The public API ignores a blank or unchanged name here rather than refusing it.
  const fullName = update.fullName !== undefined && update.fullName.trim() !== '' ? checkFullName(update.fullName) : undefined;
  const profileData = update.profileData === undefined ? undefined : checkProfileData(realm, actor, userId, update.profileData);
  return realm.transact((tx) => {
    const current = storedUser(tx.realm, userId);
    if (update.role !== undefined && update.role !== current.role) {
      // Again inside the transaction: a concurrent demotion may have left this one the last owner.
      checkRoleChange(tx.realm, actor, current, update.role);
      changeRoleTxn(tx, current, update.role);
    }
    if (fullName !== undefined && fullName !== current.full_name) renameTxn(tx, current, fullName);
    if (profileData !== undefined) writeProfileDataTxn(tx, profileData);
  });
}
