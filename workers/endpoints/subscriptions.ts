import { z } from 'zod';
import { doSubscribe } from '../actions/subscriptions';
import { errors } from '../lib/errors';
import { json, param } from '../lib/params';
import { userRoute } from '../lib/route';

/**
 * Most streams one request may subscribe to (each may be created, with its notice: ~3.5 ms
 * apiece here, 2000 took 7 s), and most stream × user pairs it may subscribe.
 */
const MAX_STREAMS_PER_REQUEST = 100;
const MAX_SUBSCRIPTIONS_PER_REQUEST = 10_000;

const retention = z.union([z.literal('realm_default'), z.literal('unlimited'), param.safeInt.min(1)]);

/** POST /users/me/subscriptions (SPEC §Endpoints). */
export const postSubscriptions = userRoute(
  z.object({
    subscriptions: json(
      z
        .array(z.object({ name: z.string(), description: z.string().optional() }))
        .min(1)
        .max(MAX_STREAMS_PER_REQUEST),
    ),
    principals: param.principals(),
    authorization_errors_fatal: param.bool(true),
    announce: param.bool(false),
    invite_only: param.bool(false),
    is_web_public: param.bool(false),
    history_public_to_subscribers: param.optionalBool(),
    stream_post_policy: json(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).default(1)),
    // Either JSON (`30`, `"unlimited"`) or the bare words, as clients send both.
    message_retention_days: z.preprocess(decodeRetention, retention.optional()),
    can_remove_subscribers_group_id: param.optionalInt(),
  }),
  z.strictObject({
    subscribed: z.record(z.string(), z.array(z.string())),
    already_subscribed: z.record(z.string(), z.array(z.string())),
    unauthorized: z.array(z.string()).optional(),
  }),
  async ({ realm, user }, p) => {
    if (p.subscriptions.length * Math.max(1, p.principals?.length ?? 1) > MAX_SUBSCRIPTIONS_PER_REQUEST) {
      throw errors.badRequest(`Too many subscriptions in one request (limit: ${MAX_SUBSCRIPTIONS_PER_REQUEST} streams × users).`);
    }
    return {
      ...(await doSubscribe(realm, user, {
        subscriptions: p.subscriptions,
        principals: p.principals,
        authorizationErrorsFatal: p.authorization_errors_fatal,
        announce: p.announce,
        settings: {
          inviteOnly: p.invite_only,
          isWebPublic: p.is_web_public,
          historyPublicToSubscribers: p.history_public_to_subscribers,
          streamPostPolicy: p.stream_post_policy,
          messageRetentionDays: p.message_retention_days,
          canRemoveSubscribersGroupId: p.can_remove_subscribers_group_id,
        },
      })),
    };
  },
);

function decodeRetention(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (value === 'realm_default' || value === 'unlimited') return value;
  if (value === 'null') return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
