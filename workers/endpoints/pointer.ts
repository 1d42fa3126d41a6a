import { z } from 'zod';
import { doUpdatePointer } from '../actions/pointer';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { pointerOf } from '../queries/pointer';
import { EMPTY, id } from '../schemas/objects';

/** GET /users/me/pointer (legacy; zulip-js `users.me.pointer.retrieve`). */
export const getPointer = userRoute(z.object({}), z.strictObject({ pointer: id }), ({ realm, user }) => ({
  pointer: pointerOf(realm, user.id),
}));

/** POST /users/me/pointer (legacy; zulip-js `users.me.pointer.update`). */
export const postPointer = userRoute(z.object({ pointer: param.id() }), EMPTY, async ({ realm, user }, p) => {
  await doUpdatePointer(realm, user, p.pointer);
  return {};
});
