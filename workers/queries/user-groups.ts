import { POLICY } from '../lib/policy';
import type { Realm } from '../realm';
import { realmSettingsText } from './realm-settings';

export interface UserGroupRow {
  id: number;
  name: string;
  description: string;
  is_system_group: number;
}

export function userGroupById(realm: Realm, id: number): UserGroupRow | undefined {
  return realm.rows<UserGroupRow, [number]>('SELECT id, name, description, is_system_group FROM user_groups WHERE id = ?').get(id);
}

export function userGroupByName(realm: Realm, name: string): UserGroupRow | undefined {
  return realm
    .rows<UserGroupRow, [string]>('SELECT id, name, description, is_system_group FROM user_groups WHERE name = ? COLLATE NOCASE')
    .get(name);
}

export function directMemberIds(realm: Realm, groupId: number): number[] {
  return realm
    .rows<{ user_id: number }, [number]>('SELECT user_id FROM user_group_members WHERE group_id = ? ORDER BY user_id')
    .all(groupId)
    .map((r) => r.user_id);
}

export function directSubgroupIds(realm: Realm, groupId: number): number[] {
  return realm
    .rows<{ subgroup_id: number }, [number]>('SELECT subgroup_id FROM user_group_subgroups WHERE group_id = ? ORDER BY subgroup_id')
    .all(groupId)
    .map((r) => r.subgroup_id);
}

/** The group's subgroups at any depth, the group itself excluded (subgroup graphs have no cycles). */
export function recursiveSubgroupIds(realm: Realm, groupId: number): number[] {
  const rows = realm
    .rows<{ id: number }, [number]>(
      `WITH RECURSIVE sub(id) AS (
         SELECT subgroup_id FROM user_group_subgroups WHERE group_id = ?
         UNION SELECT s.subgroup_id FROM user_group_subgroups s JOIN sub ON s.group_id = sub.id
       )
       SELECT id FROM sub ORDER BY id`,
    )
    .all(groupId);
  return rows.map((r) => r.id);
}

/** The groups that contain this one at any depth (read through user_group_subgroups_subgroup). */
export function recursiveSupergroupIds(realm: Realm, groupId: number): number[] {
  const rows = realm
    .rows<{ id: number }, [number]>(
      `WITH RECURSIVE sup(id) AS (
         SELECT group_id FROM user_group_subgroups WHERE subgroup_id = ?
         UNION SELECT s.group_id FROM user_group_subgroups s JOIN sup ON s.subgroup_id = sup.id
       )
       SELECT id FROM sup ORDER BY id`,
    )
    .all(groupId);
  return rows.map((r) => r.id);
}

/** Members of the group and of all its subgroups (openapi get-user-group-members without direct_member_only). */
export function recursiveMemberIds(realm: Realm, groupId: number): number[] {
  const rows = realm
    .rows<{ user_id: number }, [number]>(
      `WITH RECURSIVE grp(id) AS (
         SELECT ? UNION SELECT s.subgroup_id FROM user_group_subgroups s JOIN grp ON s.group_id = grp.id
       )
       SELECT DISTINCT m.user_id FROM user_group_members m JOIN grp ON m.group_id = grp.id ORDER BY m.user_id`,
    )
    .all(groupId);
  return rows.map((r) => r.user_id);
}

/**
 * The realm's `user_group_edit_policy` (api-notes §e; stored in the realm row's `settings`
 * JSON by PATCH /realm), with the public API's default: members.
 */
export function userGroupEditPolicy(realm: Realm): number {
  const text = realmSettingsText(realm);
  try {
    const value = (JSON.parse(text) as Record<string, unknown>)['user_group_edit_policy'];
    return typeof value === 'number' && Number.isInteger(value) ? value : POLICY.MEMBERS;
  } catch {
    return POLICY.MEMBERS;
  }
}
