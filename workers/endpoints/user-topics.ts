import { z } from 'zod';
import { doSetTopicVisibility } from '../actions/user-topics';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';

/** POST /user_topics (SPEC); the policy's range is checked by the action (BAD_REQUEST). */
export const postUserTopic = userRoute(
  z.object({ stream_id: param.int(), topic: z.string(), visibility_policy: param.int() }),
  async ({ realm, user }, p) => {
    await doSetTopicVisibility(realm, user, p.stream_id, p.topic, p.visibility_policy);
    return {};
  },
);
