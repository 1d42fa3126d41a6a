import { z } from 'zod';
import { doMarkAllAsRead, doMarkStreamAsRead, doMarkTopicAsRead } from '../actions/mark-read';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { EMPTY } from '../schemas/objects';

/** POST /mark_all_as_read: a plain success at feature level 185 (openapi mark-all-as-read). */
export const postMarkAllAsRead = userRoute(z.object({}), EMPTY, async ({ realm, user }) => {
  await doMarkAllAsRead(realm, user);
  return {};
});

/** POST /mark_stream_as_read */
export const postMarkStreamAsRead = userRoute(z.object({ stream_id: param.int() }), EMPTY, async ({ realm, user }, p) => {
  await doMarkStreamAsRead(realm, user, p.stream_id);
  return {};
});

/** POST /mark_topic_as_read */
export const postMarkTopicAsRead = userRoute(
  z.object({ stream_id: param.int(), topic_name: z.string() }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doMarkTopicAsRead(realm, user, p.stream_id, p.topic_name);
    return {};
  },
);
