import { FULL_MEMBERS_GROUP, MEMBERS_GROUP } from '../lib/roles';
import { qualifyingFullMemberIds, systemGroupIdNamed } from '../queries/full-members';
import { directMemberIds } from '../queries/user-groups';
import { activeUserIds } from '../queries/users';
import type { Realm, Txn } from '../realm';

/**
 * Brings `@role:fullmembers` in step inside the caller's transaction (issue 9: system groups
 * follow roles): its direct members become exactly the members whose account passed the
 * realm's waiting period; administrators and above are in it through the subgroup chain.
 * Publishes `user_group` remove_members / add_members (api-notes §d) to everyone.
 * Called after a user joins, a role changes, `waiting_period_threshold` changes, and
 * periodically (actors/full-members.ts). Returns how many memberships changed.
 */
export function syncFullMembersTxn(tx: Txn): number {
  const realm = tx.realm;
  const fullMembersGroup = systemGroupIdNamed(realm, FULL_MEMBERS_GROUP);
  const membersGroup = systemGroupIdNamed(realm, MEMBERS_GROUP);
  if (fullMembersGroup === null || membersGroup === null) return 0;
  const wanted = new Set(qualifyingFullMemberIds(realm, membersGroup));
  const current = new Set(directMemberIds(realm, fullMembersGroup));
  const toRemove = [...current].filter((id) => !wanted.has(id));
  const toAdd = [...wanted].filter((id) => !current.has(id));
  if (toRemove.length === 0 && toAdd.length === 0) return 0;
  const everyone = activeUserIds(realm);
  if (toRemove.length > 0) {
    const remove = realm.stmt('DELETE FROM user_group_members WHERE group_id = ? AND user_id = ?');
    for (const id of toRemove) remove.run(fullMembersGroup, id);
    tx.publish({ type: 'user_group', op: 'remove_members', group_id: fullMembersGroup, user_ids: toRemove }, everyone);
  }
  if (toAdd.length > 0) {
    const insert = realm.stmt('INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)');
    for (const id of toAdd) insert.run(fullMembersGroup, id);
    tx.publish({ type: 'user_group', op: 'add_members', group_id: fullMembersGroup, user_ids: toAdd }, everyone);
  }
  return toRemove.length + toAdd.length;
}

/** The periodic promotion (actors/full-members.ts): one transaction. */
export function doSyncFullMembers(realm: Realm): Promise<number> {
  return realm.transact((tx) => syncFullMembersTxn(tx));
}
