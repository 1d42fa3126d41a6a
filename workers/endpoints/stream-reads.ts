import { z } from 'zod';
import { errors } from '../lib/errors';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { subscriptionState } from '../queries/register-streams';
import { accessStreamById, accessStreamByName, streamMembers, streamTopics } from '../queries/stream-access';
import { isSubscribed, streamObject } from '../queries/streams';
import { userById } from '../queries/users';
import { subscriptionObjectSchema } from '../events/stream-user-payloads';
import { ids, id, listedStreamSchema } from '../schemas/objects';

/** GET /users/me/subscriptions (openapi get-subscriptions): the records register's `subscriptions` holds. */
export const getSubscriptions = userRoute(
  z.object({ include_subscribers: param.bool(false) }),
  z.strictObject({ subscriptions: z.array(subscriptionObjectSchema) }),
  ({ realm, user }, p) => ({
    // Null notification settings mean "inherit" and are sent as is, as the public API does here.
    subscriptions: subscriptionState(realm, user, { includeSubscribers: p.include_subscribers, notificationSettingsNull: true })
      .subscriptions,
  }),
);

/** GET /users/{user_id}/subscriptions/{stream_id} (openapi get-subscription-status); `me` is the caller. */
export const getSubscriptionStatus = userRoute(
  z.object({ user_id: z.union([z.literal('me'), param.id()]), stream_id: param.id() }),
  z.strictObject({ is_subscribed: z.boolean() }),
  ({ realm, user }, p) => {
    const target = p.user_id === 'me' ? user : userById(realm, p.user_id);
    if (!target || target.is_active !== 1) throw errors.noSuchUser();
    const stream = accessStreamById(realm, user, p.stream_id);
    return { is_subscribed: isSubscribed(realm, target.id, stream.id) };
  },
);

/** GET /streams/{stream_id} (openapi get-stream-by-id). */
export const getStreamById = userRoute(
  z.object({ stream_id: param.id() }),
  z.strictObject({ stream: listedStreamSchema }),
  ({ realm, user }, p) => ({
    stream: streamObject(accessStreamById(realm, user, p.stream_id)),
  }),
);

/** GET /get_stream_id (openapi get-stream-id). */
export const getStreamId = userRoute(z.object({ stream: z.string() }), z.strictObject({ stream_id: id }), ({ realm, user }, p) => ({
  stream_id: accessStreamByName(realm, user, p.stream).id,
}));

/** GET /streams/{stream_id}/members (openapi get-subscribers). */
export const getStreamMembers = userRoute(
  z.object({ stream_id: param.id() }),
  z.strictObject({ subscribers: ids }),
  ({ realm, user }, p) => ({
    subscribers: streamMembers(realm, user, p.stream_id),
  }),
);

/** GET /users/me/{stream_id}/topics (openapi get-stream-topics). */
export const getStreamTopics = userRoute(
  z.object({ stream_id: param.id() }),
  z.strictObject({ topics: z.array(z.strictObject({ name: z.string(), max_id: id })) }),
  ({ realm, user }, p) => ({
    topics: streamTopics(realm, user, p.stream_id),
  }),
);
