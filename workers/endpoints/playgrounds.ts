import { z } from 'zod';
import { doAddPlayground, doRemovePlayground } from '../actions/playgrounds';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { EMPTY, id } from '../schemas/objects';

/** POST /realm/playgrounds (SPEC §Endpoints): `id` of the new playground. */
export const postPlayground = userRoute(
  z.object({ name: z.string(), lexer_language: z.string(), url_prefix: z.string() }),
  z.strictObject({ id }),
  async ({ realm, user }, p) => ({ id: await doAddPlayground(realm, user, p.name, p.lexer_language, p.url_prefix) }),
);

/** DELETE /realm/playgrounds/{playground_id} (openapi remove-code-playground). */
export const deletePlayground = userRoute(z.object({ playground_id: param.id() }), EMPTY, async ({ realm, user }, p) => {
  await doRemovePlayground(realm, user, p.playground_id);
  return {};
});
