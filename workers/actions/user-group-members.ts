import { errors } from '../lib/errors';
import { activeUserIds, userById, type UserRow } from '../queries/users';
import { directMemberIds, directSubgroupIds, recursiveSupergroupIds, userGroupById } from '../queries/user-groups';
import type { Realm, Txn } from '../realm';
import { sendNoticeTxn, silentMention } from './notifications';
import { accessUserGroupForWrite, checkGroupUserIds } from './user-groups';

/**
 * api-notes §b POST /user_groups/{id}/members: the notification bot tells each affected active
 * human, other than the actor, that they were added or removed.
 */
function noticeMembershipTxn(tx: Txn, actor: UserRow, groupName: string, userIds: readonly number[], added: boolean): void {
  const text = `${silentMention(actor)} ${added ? 'added you to' : 'removed you from'} the group @_*${groupName}*.`;
  for (const id of userIds) {
    if (id === actor.id) continue;
    const user = userById(tx.realm, id);
    if (!user || user.is_bot === 1 || user.is_active !== 1) continue;
    sendNoticeTxn(tx, { user }, text);
  }
}

function checkSomethingToDo(add: readonly number[], remove: readonly number[]): void {
  if (add.length === 0 && remove.length === 0) throw errors.badRequest('Nothing to do. Specify at least one of "add" or "delete".');
}

/** POST /user_groups/{id}/members (api-notes §b): events `add_members` / `remove_members`. */
export function doUpdateUserGroupMembers(realm: Realm, actor: UserRow, groupId: number, add: number[], remove: number[]): Promise<void> {
  checkSomethingToDo(add, remove);
  const group = accessUserGroupForWrite(realm, actor, groupId);
  const toAdd = checkGroupUserIds(realm, add);
  const toRemove = [...new Set(remove)];
  return realm.transact((tx) => {
    const current = new Set(directMemberIds(tx.realm, groupId));
    for (const id of toAdd) if (current.has(id)) throw errors.badRequest(`User ${id} is already a member of this group`);
    for (const id of toRemove) if (!current.has(id)) throw errors.badRequest(`There is no member '${id}' in this user group`);
    const everyone = activeUserIds(tx.realm);
    if (toAdd.length > 0) {
      const insert = tx.realm.stmt('INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)');
      for (const id of toAdd) insert.run(groupId, id);
      tx.publish({ type: 'user_group', op: 'add_members', group_id: groupId, user_ids: toAdd }, everyone);
      noticeMembershipTxn(tx, actor, group.name, toAdd, true);
    }
    if (toRemove.length > 0) {
      const remove = tx.realm.stmt('DELETE FROM user_group_members WHERE group_id = ? AND user_id = ?');
      for (const id of toRemove) remove.run(groupId, id);
      tx.publish({ type: 'user_group', op: 'remove_members', group_id: groupId, user_ids: toRemove }, everyone);
      noticeMembershipTxn(tx, actor, group.name, toRemove, false);
    }
  });
}

/**
 * POST /user_groups/{id}/subgroups (SPEC §Endpoints): unknown groups are refused, and so is any
 * subgroup that would make the group contain itself.
 */
export function doUpdateUserGroupSubgroups(realm: Realm, actor: UserRow, groupId: number, add: number[], remove: number[]): Promise<void> {
  checkSomethingToDo(add, remove);
  accessUserGroupForWrite(realm, actor, groupId);
  const toAdd = [...new Set(add)];
  const toRemove = [...new Set(remove)];
  for (const id of [...toAdd, ...toRemove]) if (!userGroupById(realm, id)) throw errors.badRequest(`Invalid user group ID: ${id}`);
  return realm.transact((tx) => {
    const current = new Set(directSubgroupIds(tx.realm, groupId));
    for (const id of toAdd) if (current.has(id)) throw errors.badRequest(`User group ${id} is already a subgroup of this group.`);
    // A cycle: the group itself, or one of the groups that contain it, becoming its subgroup.
    const containing = new Set([groupId, ...recursiveSupergroupIds(tx.realm, groupId)]);
    if (toAdd.some((id) => containing.has(id))) {
      throw errors.badRequest(`User group ${groupId} is already a subgroup of one of the passed subgroups.`);
    }
    for (const id of toRemove) if (!current.has(id)) throw errors.badRequest(`User group ${id} is not a subgroup of this group.`);
    const everyone = activeUserIds(tx.realm);
    if (toAdd.length > 0) {
      const insert = tx.realm.stmt('INSERT INTO user_group_subgroups (group_id, subgroup_id) VALUES (?, ?)');
      for (const id of toAdd) insert.run(groupId, id);
      tx.publish({ type: 'user_group', op: 'add_subgroups', group_id: groupId, direct_subgroup_ids: toAdd }, everyone);
    }
    if (toRemove.length > 0) {
      const del = tx.realm.stmt('DELETE FROM user_group_subgroups WHERE group_id = ? AND subgroup_id = ?');
      for (const id of toRemove) del.run(groupId, id);
      tx.publish({ type: 'user_group', op: 'remove_subgroups', group_id: groupId, direct_subgroup_ids: toRemove }, everyone);
    }
  });
}
