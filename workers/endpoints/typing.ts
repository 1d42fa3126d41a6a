import { z } from 'zod';
import { doTyping } from '../actions/typing';
import { decodeRecipients } from '../lib/recipients';
import { userRoute } from '../lib/route';
import { EMPTY } from '../schemas/objects';

/**
 * POST /typing (SPEC POST /typing). `to` is decoded like POST /messages' recipients: the JSON
 * list of IDs the spec asks for, and also the bare ID zulip-js sends for a one-element list it
 * does not stringify and the email lists of older clients (openapi set-typing-status).
 */
export const postTyping = userRoute(
  z.object({
    type: z.enum(['direct', 'stream', 'private']).default('direct'),
    op: z.enum(['start', 'stop']),
    to: z.string(),
    topic: z.string().optional(),
  }),
  EMPTY,
  ({ realm, user }, p) => {
    doTyping(realm, user, { type: p.type, op: p.op, to: decodeRecipients(p.to), topic: p.topic });
    return {};
  },
);
