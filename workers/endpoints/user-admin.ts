import { z } from 'zod';
import { doRegenerateApiKey } from '../actions/api-keys';
import { doDeactivateOwnUser, doDeactivateUser, doReactivateUser } from '../actions/deactivation';
import { doMuteUser, doUnmuteUser } from '../actions/muted-users';
import { doUpdateUser } from '../actions/user-roles';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { profileDataParam } from './profile-fields';
import { EMPTY } from '../schemas/objects';

/*
 * Account administration (openapi update-user, deactivate-user, reactivate-user,
 * deactivate-own-user, mute-user, unmute-user) and the API key.
 */

/** PATCH /users/{user_id}: `full_name`, `role`, `profile_data` (administrators). */
export const patchUser = userRoute(
  z.object({ user_id: param.id(), full_name: z.string().optional(), role: param.optionalInt(), profile_data: profileDataParam.optional() }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doUpdateUser(realm, user, p.user_id, { fullName: p.full_name, role: p.role, profileData: p.profile_data });
    return {};
  },
);

/** DELETE /users/{user_id}; `deactivation_notification_comment` is accepted: no mail is sent. */
export const deleteUser = userRoute(
  z.object({ user_id: param.id(), deactivation_notification_comment: z.string().max(2000).optional() }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doDeactivateUser(realm, user, p.user_id);
    return {};
  },
);

/** POST /users/{user_id}/reactivate. */
export const postReactivateUser = userRoute(z.object({ user_id: param.id() }), EMPTY, async ({ realm, user }, p) => {
  await doReactivateUser(realm, user, p.user_id);
  return {};
});

/** DELETE /users/me. */
export const deleteOwnUser = userRoute(z.object({}), EMPTY, async ({ realm, user }) => {
  await doDeactivateOwnUser(realm, user);
  return {};
});

/** POST /users/me/api_key/regenerate: `api_key`, the new key. */
export const postRegenerateApiKey = userRoute(z.object({}), z.strictObject({ api_key: z.string() }), async ({ realm, user }) => ({
  api_key: await doRegenerateApiKey(realm, user),
}));

/** POST /users/me/muted_users/{muted_user_id}. */
export const postMutedUser = userRoute(z.object({ muted_user_id: param.id() }), EMPTY, async ({ realm, user }, p) => {
  await doMuteUser(realm, user, p.muted_user_id);
  return {};
});

/** DELETE /users/me/muted_users/{muted_user_id}. */
export const deleteMutedUser = userRoute(z.object({ muted_user_id: param.id() }), EMPTY, async ({ realm, user }, p) => {
  await doUnmuteUser(realm, user, p.muted_user_id);
  return {};
});
