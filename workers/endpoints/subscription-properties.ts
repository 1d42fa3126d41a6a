import { z } from 'zod';
import { doUpdateSubscriptionProperties } from '../actions/subscription-properties';
import { json, param } from '../lib/params';
import { userRoute } from '../lib/route';
import { EMPTY } from '../schemas/objects';

const change = z.object({ stream_id: param.safeInt, property: z.string(), value: z.union([z.boolean(), z.string()]) });

/** POST /users/me/subscriptions/properties (SPEC); unknown parameters are listed by the router (feature level 111). */
export const postSubscriptionProperties = userRoute(
  z.object({ subscription_data: json(z.array(change)) }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doUpdateSubscriptionProperties(realm, user, p.subscription_data);
    return {};
  },
);

/** PATCH /users/me/subscriptions/{stream_id}: the older one-property form (api-notes §a, "also served"). */
export const patchSubscriptionProperty = userRoute(
  z.object({ stream_id: param.id(), property: z.string(), value: json(z.union([z.boolean(), z.string()])) }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doUpdateSubscriptionProperties(realm, user, [{ stream_id: p.stream_id, property: p.property, value: p.value }]);
    return {};
  },
);
