import { errors } from '../lib/errors';
import { rolePassesPolicy } from '../lib/policy';
import { ROLE } from '../lib/roles';
import { activeUserIds, userById, type UserRow } from '../queries/users';
import { directMemberIds, userGroupById, userGroupByName, userGroupEditPolicy, type UserGroupRow } from '../queries/user-groups';
import type { Realm } from '../realm';

export const MAX_USER_GROUP_NAME_LENGTH = 100;

/**
 * May the actor manage user groups at all? Members and administrators only (api-notes §b GET
 * /user_groups), then the realm's `user_group_edit_policy`.
 */
export function checkMemberOrAdmin(actor: UserRow): void {
  if (actor.is_bot === 1) throw errors.botRequestRefused();
  if (actor.role === ROLE.GUEST) throw errors.guestRequestRefused();
}

export function checkCanEditUserGroups(realm: Realm, actor: UserRow): void {
  checkMemberOrAdmin(actor);
  if (!rolePassesPolicy(actor.role, userGroupEditPolicy(realm))) throw errors.insufficientPermission();
}

/** An existing group, for reading. */
export function accessUserGroup(realm: Realm, groupId: number): UserGroupRow {
  const group = userGroupById(realm, groupId);
  if (!group) throw errors.invalidUserGroup();
  return group;
}

/**
 * A group the actor may change: never a system group (kept in step with roles); otherwise
 * administrators, moderators and the group's own direct members (the public API 7.0's rule).
 */
export function accessUserGroupForWrite(realm: Realm, actor: UserRow, groupId: number): UserGroupRow {
  checkCanEditUserGroups(realm, actor);
  const group = accessUserGroup(realm, groupId);
  if (group.is_system_group === 1) throw errors.insufficientPermission();
  if (actor.role > ROLE.MODERATOR && !directMemberIds(realm, groupId).includes(actor.id)) throw errors.insufficientPermission();
  return group;
}

function checkGroupName(name: string): string {
  const groupName = name.trim();
  if (groupName === '') throw errors.badRequest("User group name can't be empty!");
  if (groupName.length > MAX_USER_GROUP_NAME_LENGTH) {
    throw errors.badRequest(`User group name cannot exceed ${MAX_USER_GROUP_NAME_LENGTH} characters.`);
  }
  // System groups own the "@role:" names (SPEC Stream.can_remove_subscribers_group_id).
  if (groupName.startsWith('@role:')) throw errors.badRequest("User group name cannot start with '@role:'.");
  return groupName;
}

/** Active users of the realm, each once (api-notes §b: an unknown one is `Invalid user ID: <n>`). */
export function checkGroupUserIds(realm: Realm, userIds: readonly number[]): number[] {
  const unique = [...new Set(userIds)];
  for (const id of unique) {
    const user = userById(realm, id);
    if (!user?.is_active) throw errors.badRequest(`Invalid user ID: ${id}`);
  }
  return unique;
}

/** POST /user_groups/create (SPEC §Endpoints). */
export function doCreateUserGroup(realm: Realm, actor: UserRow, name: string, description: string, members: number[]): Promise<number> {
  checkCanEditUserGroups(realm, actor);
  const groupName = checkGroupName(name);
  const memberIds = checkGroupUserIds(realm, members);
  return realm.transact((tx) => {
    if (userGroupByName(tx.realm, groupName)) throw errors.userGroupExists(groupName);
    const id = Number(
      tx.realm.stmt('INSERT INTO user_groups (name, description) VALUES (?, ?)').run(groupName, description).lastInsertRowid,
    );
    const addMember = tx.realm.stmt('INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)');
    for (const userId of memberIds) addMember.run(id, userId);
    tx.publish(
      {
        type: 'user_group',
        op: 'add',
        group: {
          id,
          name: groupName,
          description,
          members: [...memberIds].sort((a, b) => a - b),
          direct_subgroup_ids: [],
          is_system_group: false,
        },
      },
      activeUserIds(tx.realm),
    );
    return id;
  });
}

/** PATCH /user_groups/{id} (openapi update-user-group): one `update` event per changed field (api-notes §d). */
export function doUpdateUserGroup(
  realm: Realm,
  actor: UserRow,
  groupId: number,
  changes: { name?: string | undefined; description?: string | undefined },
): Promise<void> {
  if (changes.name === undefined && changes.description === undefined) throw errors.badRequest('No new data supplied');
  const group = accessUserGroupForWrite(realm, actor, groupId);
  const newName = changes.name === undefined ? undefined : checkGroupName(changes.name);
  return realm.transact((tx) => {
    const everyone = activeUserIds(tx.realm);
    if (newName !== undefined && newName !== group.name) {
      const existing = userGroupByName(tx.realm, newName);
      if (existing && existing.id !== groupId) throw errors.userGroupExists(newName);
      tx.realm.stmt('UPDATE user_groups SET name = ? WHERE id = ?').run(newName, groupId);
      tx.publish({ type: 'user_group', op: 'update', group_id: groupId, data: { name: newName } }, everyone);
    }
    if (changes.description !== undefined && changes.description !== group.description) {
      tx.realm.stmt('UPDATE user_groups SET description = ? WHERE id = ?').run(changes.description, groupId);
      tx.publish({ type: 'user_group', op: 'update', group_id: groupId, data: { description: changes.description } }, everyone);
    }
  });
}

/** DELETE /user_groups/{id} (openapi remove-user-group): the group leaves its supergroups too. */
export function doDeleteUserGroup(realm: Realm, actor: UserRow, groupId: number): Promise<void> {
  accessUserGroupForWrite(realm, actor, groupId);
  return realm.transact((tx) => {
    tx.realm.stmt('DELETE FROM user_group_members WHERE group_id = ?').run(groupId);
    tx.realm.stmt('DELETE FROM user_group_subgroups WHERE group_id = ?').run(groupId);
    tx.realm.stmt('DELETE FROM user_group_subgroups WHERE subgroup_id = ?').run(groupId);
    tx.realm.stmt('DELETE FROM user_groups WHERE id = ?').run(groupId);
    tx.publish({ type: 'user_group', op: 'remove', group_id: groupId }, activeUserIds(tx.realm));
  });
}
