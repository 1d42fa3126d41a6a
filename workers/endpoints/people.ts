import { z } from 'zod';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { realmMembers, userObject, userToShow } from '../queries/people';

/** SPEC GET /users/{email}: `client_extavatar` defaults to true, profile fields to false. */
const readParams = {
  client_extavatar: param.bool(true),
  include_custom_profile_fields: param.bool(false),
};

/** GET /users: every user of the realm (people, bots, deactivated), not the system bots. */
export const getUsers = userRoute(z.object(readParams), ({ realm, user }, { client_extavatar }) => ({
  members: realmMembers(realm).map((member) => userObject(realm, user, member, { clientExtavatar: client_extavatar })),
}));

/** GET /users/{user_id} and GET /users/{email} (the API email): one path, told apart by its form. */
export const getUser = userRoute(
  z.object({ ...readParams, user_id_or_email: z.string() }),
  ({ realm, user }, { client_extavatar, user_id_or_email }) => ({
    user: userObject(realm, user, userToShow(realm, user_id_or_email), { clientExtavatar: client_extavatar }),
  }),
);
