import { z } from 'zod';
import { doCreateUser } from '../actions/users';
import { userRoute } from '../lib/route';
import { ownUser } from '../queries/users';
import { id, ownUserSchema } from '../schemas/objects';

/** POST /users (administrators). */
export const postUsers = userRoute(
  z.object({ email: z.string(), password: z.string(), full_name: z.string() }),
  z.strictObject({ user_id: id }),
  async ({ realm, user }, { email, password, full_name }) => ({
    user_id: await doCreateUser(realm, user, { email, password, fullName: full_name }),
  }),
);

/** GET /users/me (SPEC §Resources, Own user). */
export const getOwnUser = userRoute(z.object({}), ownUserSchema, ({ realm, user }) => ownUser(realm, user));
