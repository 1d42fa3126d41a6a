import { z } from 'zod';
import { doUpdateUserGroupMembers, doUpdateUserGroupSubgroups } from '../actions/user-group-members';
import { accessUserGroup, checkMemberOrAdmin, doCreateUserGroup, doDeleteUserGroup, doUpdateUserGroup } from '../actions/user-groups';
import { errors } from '../lib/errors';
import { serialized } from '../lib/contract';
import { json, param } from '../lib/params';
import { userRoute } from '../lib/route';
import { userGroupsJson } from '../queries/register-users';
import { directMemberIds, directSubgroupIds, recursiveMemberIds, recursiveSubgroupIds } from '../queries/user-groups';
import { userById } from '../queries/users';
import { userGroupSchema } from '../events/realm-payloads';
import { EMPTY, ids } from '../schemas/objects';

const idList = () => json(z.array(param.safeInt).default([]));

/** POST /user_groups/create (SPEC §Endpoints): the response is the bare envelope. */
export const postCreateUserGroup = userRoute(
  z.object({ name: z.string(), description: z.string(), members: param.intList() }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doCreateUserGroup(realm, user, p.name, p.description, p.members);
    return {};
  },
);

/** GET /user_groups (api-notes §b): every group, system groups included. */
export const getUserGroups = userRoute(
  z.object({}),
  z.strictObject({ user_groups: serialized(z.array(userGroupSchema)) }),
  ({ realm, user }) => {
    checkMemberOrAdmin(user);
    return { user_groups: userGroupsJson(realm) };
  },
);

/** PATCH /user_groups/{user_group_id} (openapi update-user-group). */
export const patchUserGroup = userRoute(
  z.object({ user_group_id: param.id(), name: z.string().optional(), description: z.string().optional() }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doUpdateUserGroup(realm, user, p.user_group_id, { name: p.name, description: p.description });
    return {};
  },
);

/** DELETE /user_groups/{user_group_id} (openapi remove-user-group). */
export const deleteUserGroup = userRoute(z.object({ user_group_id: param.id() }), EMPTY, async ({ realm, user }, p) => {
  await doDeleteUserGroup(realm, user, p.user_group_id);
  return {};
});

/** POST /user_groups/{user_group_id}/members (api-notes §b). */
export const postUserGroupMembers = userRoute(
  z.object({ user_group_id: param.id(), add: idList(), delete: idList() }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doUpdateUserGroupMembers(realm, user, p.user_group_id, p.add, p.delete);
    return {};
  },
);

/** GET /user_groups/{user_group_id}/members (openapi get-user-group-members): recursive unless `direct_member_only`. */
export const getUserGroupMembers = userRoute(
  z.object({ user_group_id: param.id(), direct_member_only: param.bool(false) }),
  z.strictObject({ members: ids }),
  ({ realm }, p) => {
    accessUserGroup(realm, p.user_group_id);
    return { members: p.direct_member_only ? directMemberIds(realm, p.user_group_id) : recursiveMemberIds(realm, p.user_group_id) };
  },
);

/** GET /user_groups/{user_group_id}/members/{user_id} (openapi get-is-user-group-member). */
export const getIsUserGroupMember = userRoute(
  z.object({ user_group_id: param.id(), user_id: param.id(), direct_member_only: param.bool(false) }),
  z.strictObject({ is_user_group_member: z.boolean() }),
  ({ realm }, p) => {
    accessUserGroup(realm, p.user_group_id);
    if (!userById(realm, p.user_id)) throw errors.noSuchUser();
    const members = p.direct_member_only ? directMemberIds(realm, p.user_group_id) : recursiveMemberIds(realm, p.user_group_id);
    return { is_user_group_member: members.includes(p.user_id) };
  },
);

/** POST /user_groups/{user_group_id}/subgroups (SPEC §Endpoints). */
export const postUserGroupSubgroups = userRoute(
  z.object({ user_group_id: param.id(), add: idList(), delete: idList() }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doUpdateUserGroupSubgroups(realm, user, p.user_group_id, p.add, p.delete);
    return {};
  },
);

/** GET /user_groups/{user_group_id}/subgroups (openapi get-user-group-subgroups): recursive unless `direct_subgroup_only`. */
export const getUserGroupSubgroups = userRoute(
  z.object({ user_group_id: param.id(), direct_subgroup_only: param.bool(false) }),
  z.strictObject({ subgroups: ids }),
  ({ realm }, p) => {
    accessUserGroup(realm, p.user_group_id);
    return { subgroups: p.direct_subgroup_only ? directSubgroupIds(realm, p.user_group_id) : recursiveSubgroupIds(realm, p.user_group_id) };
  },
);
