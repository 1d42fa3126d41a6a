import { errors } from '../lib/errors';
import { ROLE } from '../lib/roles';
import { activeUserIds, userById, type UserRow } from '../queries/users';
import type { Realm } from '../realm';

export const MAX_USER_GROUP_NAME_LENGTH = 100;

/** POST /user_groups/create (SPEC §Endpoints). */
export function doCreateUserGroup(realm: Realm, actor: UserRow, name: string, description: string, members: number[]): Promise<number> {
  if (actor.role === ROLE.GUEST) throw errors.badRequest('Not allowed for guest users');
  const groupName = name.trim();
  if (groupName === '') throw errors.badRequest('User group name cannot be empty.');
  if (groupName.length > MAX_USER_GROUP_NAME_LENGTH) {
    throw errors.badRequest(`User group name cannot exceed ${MAX_USER_GROUP_NAME_LENGTH} characters.`);
  }
  // System groups own the "@role:" names (SPEC Stream.can_remove_subscribers_group_id).
  if (groupName.startsWith('@role:')) throw errors.badRequest("User group name cannot start with '@role:'.");
  const memberIds = [...new Set(members)];
  for (const id of memberIds) {
    const user = userById(realm, id);
    if (!user || !user.is_active) throw errors.badRequest(`Invalid user ID: ${id}`);
  }
  return realm.transact((tx) => {
    if (tx.realm.stmt('SELECT 1 FROM user_groups WHERE name = ? COLLATE NOCASE').get(groupName)) {
      throw errors.badRequest(`User group '${groupName}' already exists.`);
    }
    const id = Number(tx.realm.stmt('INSERT INTO user_groups (name, description) VALUES (?, ?)').run(groupName, description).lastInsertRowid);
    const addMember = tx.realm.stmt('INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)');
    for (const userId of memberIds) addMember.run(id, userId);
    tx.publish(
      {
        type: 'user_group',
        op: 'add',
        group: { id, name: groupName, description, members: memberIds, direct_subgroup_ids: [], is_system_group: false },
      },
      activeUserIds(tx.realm),
    );
    return id;
  });
}
