import { z } from 'zod';
import { doDeleteMessage, doDeleteTopic } from '../actions/message-delete';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { EMPTY } from '../schemas/objects';

/** DELETE /messages/{message_id} (api-notes §b). */
export const deleteMessage = userRoute(z.object({ message_id: param.id() }), EMPTY, async ({ realm, user }, p) => {
  await doDeleteMessage(realm, user, p.message_id);
  return {};
});

/**
 * POST /streams/{stream_id}/delete_topic (SPEC §Endpoints). A call that runs out of time
 * answers HTTP 200 `partially_completed` with code REQUEST_TIMEOUT (SPEC §Errors, feature
 * level 154); calling again continues.
 */
export const postDeleteTopic = userRoute(
  z.object({ stream_id: param.id(), topic_name: z.string() }),
  z.strictObject({ result: z.literal('partially_completed').optional(), code: z.literal('REQUEST_TIMEOUT').optional() }),
  async ({ realm, user }, p) => {
    const outcome = await doDeleteTopic(realm, user, p.stream_id, p.topic_name, realm.deleteTopicSettings);
    return outcome === 'partial' ? { result: 'partially_completed' as const, code: 'REQUEST_TIMEOUT' as const } : {};
  },
);
