import type { Realm } from '../realm';

/**
 * Is the user a member of the group, directly or through its subgroups (recursively)? Used for
 * the stream's `can_remove_subscribers_group_id` (SPEC Stream).
 */
export function isGroupMember(realm: Realm, userId: number, groupId: number): boolean {
  const row = realm
    .stmt(
      `WITH RECURSIVE groups(id) AS (
         SELECT ? UNION SELECT s.subgroup_id FROM user_group_subgroups s JOIN groups g ON s.group_id = g.id
       )
       SELECT 1 FROM user_group_members m JOIN groups g ON m.group_id = g.id WHERE m.user_id = ? LIMIT 1`,
    )
    .get(groupId, userId);
  return row !== undefined;
}
