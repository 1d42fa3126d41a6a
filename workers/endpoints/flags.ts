import { z } from 'zod';
import { doUpdateMessageFlags } from '../actions/flags';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { ids } from '../schemas/objects';

/**
 * POST /messages/flags (api-notes §b). `op` and `flag` are plain strings here so that bad values
 * get the public API's own messages from the action, not a generic parameter error.
 */
export const postMessageFlags = userRoute(
  z.object({ messages: param.messageIds(), op: z.string(), flag: z.string() }),
  z.strictObject({ messages: ids }),
  async ({ realm, user }, p) => {
    await doUpdateMessageFlags(realm, user, p.op, p.flag, p.messages);
    // The response echoes the list sent, for compatibility (api-notes §b).
    return { messages: p.messages };
  },
);
