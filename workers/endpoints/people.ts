import { z } from 'zod';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { profileDataByUser } from '../queries/profile-fields';
import { realmMembers, userObject, userToShow, type UserObjectOptions } from '../queries/people';
import { userObjectSchema } from '../schemas/objects';

/** SPEC GET /users/{email}: `client_extavatar` defaults to true, profile fields to false. */
const readParams = {
  client_extavatar: param.bool(true),
  include_custom_profile_fields: param.bool(false),
};

function objectOptions(values: { client_extavatar: boolean; include_custom_profile_fields: boolean }): UserObjectOptions {
  return { clientExtavatar: values.client_extavatar, includeProfileData: values.include_custom_profile_fields };
}

/** GET /users: every user of the realm (people, bots, deactivated), not the system bots. */
export const getUsers = userRoute(
  z.object(readParams),
  z.strictObject({ members: z.array(userObjectSchema) }),
  ({ realm, user }, values) => {
    const options = objectOptions(values);
    if (values.include_custom_profile_fields) options.profileDataByUser = profileDataByUser(realm);
    return { members: realmMembers(realm).map((member) => userObject(realm, user, member, options)) };
  },
);

/** GET /users/{user_id} and GET /users/{email} (the API email): one path, told apart by its form. */
export const getUser = userRoute(
  z.object({ ...readParams, user_id_or_email: z.string() }),
  z.strictObject({ user: userObjectSchema }),
  ({ realm, user }, values) => ({
    user: userObject(realm, user, userToShow(realm, values.user_id_or_email), objectOptions(values)),
  }),
);
