import { ROLE } from '../lib/roles';
import type { Realm } from '../realm';
import { profileDataByUser } from './profile-fields';
import { presenceStateJson } from './presence';
import { passesRealmPolicy, streamPolicySettings } from './realm-settings';
import { userStatusState } from './user-status';
import type { Wants } from './register-realm';
import { userObject, type UserObjectOptions } from './people';
import { avatarUrl, avatarUrlMedium, type UserRow } from './users';
import { mutedUsers } from './accounts';
import { botsFor } from './bots';
import { realmUsersJson } from './register-users-json';
import { versionedCache } from './cache-version';
import { JsonBytes } from '../lib/json-bytes';
import type { UserGroupRow } from './user-groups';
import type { userGroupSchema } from '../events/realm-payloads';
import type { z } from 'zod';
import type { RegisterState } from '../schemas/register';
import type { UserObject } from '../schemas/objects';

interface PersonRow extends UserRow {
  is_system_bot: number;
}

export type AvatarOptions = UserObjectOptions;

/** `realm_user` (api-notes §e): the users, the system bots, and the caller's own keys. */
export function realmUserState(realm: Realm, user: UserRow, avatars: AvatarOptions): RegisterState {
  // The active people come from realmUsersJson's cache; these are the rest.
  const rows = realm.rows<PersonRow, []>('SELECT * FROM users WHERE is_active = 0 OR is_system_bot = 1 ORDER BY id').all();
  const people = rows.filter((row) => row.is_system_bot === 0);
  const isAdmin = user.role <= ROLE.ADMINISTRATOR;
  const isMember = user.role <= ROLE.MEMBER;
  const options = { ...avatars, profileDataByUser: profileDataByUser(realm) };
  // The realm's stream policies decide what register says the user may create.
  const policies = streamPolicySettings(realm);
  const canCreatePublic = passesRealmPolicy(realm, user, policies.create_public_stream_policy);
  const canCreatePrivate = passesRealmPolicy(realm, user, policies.create_private_stream_policy);
  return {
    // api-notes §e: active users without `is_active`; SPEC User.delivery_email as `user` may see it
    realm_users: realmUsersJson(realm, user, options.clientExtavatar),
    realm_non_active_users: people.filter((row) => row.is_active === 0).map((row) => userObject(realm, user, row, options)),
    cross_realm_bots: rows
      .filter((row) => row.is_system_bot === 1)
      .map((row) => ({ ...withoutIsActive(userObject(realm, user, row, options)), is_system_bot: true })),
    avatar_source: user.avatar_source,
    avatar_url: avatarUrl(user),
    avatar_url_medium: avatarUrlMedium(user),
    can_create_private_streams: canCreatePrivate,
    can_create_public_streams: canCreatePublic,
    can_create_streams: canCreatePublic || canCreatePrivate,
    can_create_web_public_streams:
      realm.webPublicStreamsEnabled &&
      policies.enable_spectator_access &&
      passesRealmPolicy(realm, user, policies.create_web_public_stream_policy),
    can_subscribe_other_users: passesRealmPolicy(realm, user, policies.invite_to_stream_policy),
    can_invite_others_to_realm: isMember,
    is_admin: isAdmin,
    is_owner: user.role === ROLE.OWNER,
    is_moderator: user.role === ROLE.MODERATOR,
    is_guest: user.role === ROLE.GUEST,
    is_billing_admin: user.is_billing_admin === 1,
    user_id: user.id,
    email: user.email,
    delivery_email: user.delivery_email,
    full_name: user.full_name,
  };
}

function withoutIsActive(person: UserObject): Omit<UserObject, 'is_active'> {
  const { is_active: _isActive, ...rest } = person;
  return rest;
}

type UserGroupObject = z.input<typeof userGroupSchema>;

/**
 * `realm_user_groups` (api-notes §e): every group with its direct members and subgroups, kept
 * until cache_version moves (the group tables are versioned). The system groups hold everyone:
 * in a realm of 5,000 people, reading and grouping them was 3 ms of every register.
 */
const userGroupsState: (realm: Realm) => readonly UserGroupObject[] = versionedCache((realm) => {
  const groups = realm.rows<UserGroupRow, []>('SELECT id, name, description, is_system_group FROM user_groups ORDER BY id').all();
  const members = realm
    .rows<{ group_id: number; user_id: number }, []>('SELECT group_id, user_id FROM user_group_members ORDER BY group_id, user_id')
    .all();
  const subgroups = realm
    .rows<{ group_id: number; subgroup_id: number }, []>(
      'SELECT group_id, subgroup_id FROM user_group_subgroups ORDER BY group_id, subgroup_id',
    )
    .all();
  const membersOf = groupBy(
    members,
    (m) => m.group_id,
    (m) => m.user_id,
  );
  const subgroupsOf = groupBy(
    subgroups,
    (s) => s.group_id,
    (s) => s.subgroup_id,
  );
  return groups.map((group) => ({
    id: group.id,
    name: group.name,
    description: group.description,
    members: membersOf.get(group.id) ?? [],
    direct_subgroup_ids: subgroupsOf.get(group.id) ?? [],
    is_system_group: group.is_system_group === 1,
  }));
});

/** The same as JSON (register, GET /user_groups): written as it is into each answer. */
export const userGroupsJson = versionedCache((realm: Realm) => new JsonBytes([Buffer.from(JSON.stringify(userGroupsState(realm)))]));

function groupBy<T>(rows: readonly T[], key: (row: T) => number, value: (row: T) => number): Map<number, number[]> {
  const grouped = new Map<number, number[]>();
  for (const row of rows) {
    const list = grouped.get(key(row));
    if (list) list.push(value(row));
    else grouped.set(key(row), [value(row)]);
  }
  return grouped;
}

/** The data types about people: users, groups, bots, statuses, presence, muting. */
export function peopleState(realm: Realm, user: UserRow, wants: Wants, options: AvatarOptions & { slimPresence: boolean }): RegisterState {
  const state: RegisterState = {};
  if (wants('realm_user')) Object.assign(state, realmUserState(realm, user, options));
  // The bot objects of POST /bots and the realm_bot events (queries/bots).
  if (wants('realm_bot')) state['realm_bots'] = botsFor(realm, user);
  if (wants('realm_user_groups')) state['realm_user_groups'] = userGroupsJson(realm);
  // Statuses and presence (SPEC User status; api-notes §e `presence`)
  if (wants('user_status')) state['user_status'] = userStatusState(realm);
  if (wants('presence')) Object.assign(state, presenceStateJson(realm, options.slimPresence));
  if (wants('muted_users')) state['muted_users'] = mutedUsers(realm, user.id);
  return state;
}
