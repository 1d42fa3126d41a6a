import { z } from 'zod';
import { doUpdateUserStatus } from '../actions/user-status';
import { errors } from '../lib/errors';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { statusObject, statusRow } from '../queries/user-status';
import { userSettings } from '../queries/user-settings';
import { userById } from '../queries/users';
import { EMPTY, userStatusSchema } from '../schemas/objects';

/** POST /users/me/status (SPEC): only the parameters passed change. */
export const postUserStatus = userRoute(
  z.object({
    away: param.optionalBool(),
    status_text: z.string().optional(),
    emoji_name: z.string().optional(),
    emoji_code: z.string().optional(),
    reaction_type: z.string().optional(),
  }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doUpdateUserStatus(realm, user, p);
    return {};
  },
);

/** GET /users/{user_id}/status: the user's status object, as register shows it. */
export const getUserStatus = userRoute(z.object({ user_id: param.id() }), z.strictObject({ status: userStatusSchema }), ({ realm }, p) => {
  const target = userById(realm, p.user_id);
  if (!target || target.is_active === 0) throw errors.noSuchUser();
  return { status: statusObject(statusRow(realm, target.id), userSettings(target).presence_enabled) };
});
