import { z } from 'zod';
import { doArchiveStream } from '../actions/stream-archive';
import { doUpdateStream } from '../actions/stream-update';
import { doUnsubscribe } from '../actions/unsubscribe';
import { json, param } from '../lib/params';
import { userRoute } from '../lib/route';
import { EMPTY } from '../schemas/objects';

/** DELETE /users/me/subscriptions (api-notes §DELETE /users/me/subscriptions). */
export const deleteSubscriptions = userRoute(
  z.object({
    subscriptions: json(z.array(z.string()).min(1)),
    principals: param.principals(),
  }),
  z.strictObject({ removed: z.array(z.string()), not_removed: z.array(z.string()) }),
  async ({ realm, user }, p) => ({ ...(await doUnsubscribe(realm, user, p.subscriptions, p.principals)) }),
);

const retention = z.union([z.literal('realm_default'), z.literal('unlimited'), param.safeInt.min(1)]);

/** Either JSON (`30`, `"unlimited"`) or the bare words, as clients send both. */
function decodeRetention(value: unknown): unknown {
  if (typeof value !== 'string' || value === 'realm_default' || value === 'unlimited') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** PATCH /streams/{stream_id} (SPEC PATCH /streams/{stream_id}). */
export const patchStream = userRoute(
  z.object({
    stream_id: param.id(),
    description: z.string().optional(),
    new_name: z.string().optional(),
    is_private: param.optionalBool(),
    is_web_public: param.optionalBool(),
    history_public_to_subscribers: param.optionalBool(),
    stream_post_policy: json(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).optional()),
    message_retention_days: z.preprocess(decodeRetention, retention.optional()),
    can_remove_subscribers_group_id: param.optionalInt(),
    is_announcement_only: param.optionalBool(),
  }),
  EMPTY,
  async ({ realm, user }, p) => ({
    ...(await doUpdateStream(realm, user, p.stream_id, {
      description: p.description,
      newName: p.new_name,
      isPrivate: p.is_private,
      isWebPublic: p.is_web_public,
      historyPublicToSubscribers: p.history_public_to_subscribers,
      streamPostPolicy: p.stream_post_policy,
      messageRetentionDays: p.message_retention_days,
      canRemoveSubscribersGroupId: p.can_remove_subscribers_group_id,
      isAnnouncementOnly: p.is_announcement_only,
    })),
  }),
);

/** DELETE /streams/{stream_id}: archive (api-notes §Endpoints). */
export const deleteStream = userRoute(z.object({ stream_id: param.id() }), EMPTY, async ({ realm, user }, p) => ({
  ...(await doArchiveStream(realm, user, p.stream_id)),
}));
