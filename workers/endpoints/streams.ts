import { z } from 'zod';
import { errors } from '../lib/errors';
import { param } from '../lib/params';
import { ROLE } from '../lib/roles';
import { userRoute } from '../lib/route';
import { isAdmin } from '../queries/users';
import { listStreams, streamObject } from '../queries/streams';
import { listedStreamSchema } from '../schemas/objects';

/** GET /streams (SPEC §Endpoints). */
export const getStreams = userRoute(
  z.object({
    include_public: param.bool(true),
    include_web_public: param.bool(false),
    include_subscribed: param.bool(true),
    include_all_active: param.bool(false),
    include_default: param.bool(false),
    include_owner_subscribed: param.bool(false),
  }),
  z.strictObject({ streams: z.array(listedStreamSchema) }),
  ({ realm, user }, p) => {
    if (p.include_all_active && !isAdmin(user)) throw errors.badRequest('User not authorized for this query');
    const listed = listStreams(realm, user.id, {
      // Guests see only the streams they are subscribed to.
      includePublic: p.include_public && user.role !== ROLE.GUEST,
      includeWebPublic: p.include_web_public,
      includeSubscribed: p.include_subscribed,
      includeAllActive: p.include_all_active,
      includeOwnerSubscribedFor: p.include_owner_subscribed && user.is_bot && user.bot_owner_id !== null ? user.bot_owner_id : null,
    });
    return { streams: listed.map(({ row }) => streamObject(row, p.include_default)) };
  },
);
