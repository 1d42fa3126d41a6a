import { z } from 'zod';
import { doSetTopicVisibility, doUpdateMutedTopic } from '../actions/user-topics';
import { errors } from '../lib/errors';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { EMPTY } from '../schemas/objects';

/** POST /user_topics (SPEC); the policy's range is checked by the action (BAD_REQUEST). */
export const postUserTopic = userRoute(
  z.object({ stream_id: param.int(), topic: z.string(), visibility_policy: param.int() }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doSetTopicVisibility(realm, user, p.stream_id, p.topic, p.visibility_policy);
    return {};
  },
);

/**
 * PATCH /users/me/subscriptions/muted_topics: the legacy (un)muting the Python client's
 * `mute_topic` still sends; the stream by `stream_id` or by `stream` name, exactly one of them.
 */
export const patchMutedTopic = userRoute(
  z.object({
    stream_id: param.optionalInt(),
    stream: z.string().optional(),
    topic: z.string(),
    op: z.enum(['add', 'remove']),
  }),
  EMPTY,
  async ({ realm, user }, p) => {
    if (p.stream_id !== undefined && p.stream !== undefined) throw errors.incompatibleParameters(['stream_id', 'stream']);
    const ref = p.stream_id !== undefined ? { id: p.stream_id } : p.stream !== undefined ? { name: p.stream } : null;
    if (ref === null) throw errors.streamArgumentMissing();
    await doUpdateMutedTopic(realm, user, ref, p.topic, p.op);
    return {};
  },
);
