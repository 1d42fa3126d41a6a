import { z } from 'zod';
import { doAddDefaultStream, doRemoveDefaultStream } from '../actions/default-streams';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { EMPTY } from '../schemas/objects';

/** POST /default_streams (api-notes §a, openapi add-default-stream). */
export const postDefaultStream = userRoute(z.object({ stream_id: param.int() }), EMPTY, async ({ realm, user }, p) => {
  await doAddDefaultStream(realm, user, p.stream_id);
  return {};
});

/** DELETE /default_streams (api-notes §a, openapi remove-default-stream). */
export const deleteDefaultStream = userRoute(z.object({ stream_id: param.int() }), EMPTY, async ({ realm, user }, p) => {
  await doRemoveDefaultStream(realm, user, p.stream_id);
  return {};
});
