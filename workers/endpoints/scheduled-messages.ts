import { z } from 'zod';
import { doCreateScheduledMessage, doDeleteScheduledMessage, doUpdateScheduledMessage } from '../actions/scheduled-messages';
import { clientName } from '../lib/client';
import { json, param } from '../lib/params';
import { userRoute } from '../lib/route';
import { pendingScheduledMessagesOf, scheduledMessageObject } from '../queries/scheduled-messages';
import { scheduledMessageSchema } from '../events/realm-payloads';
import { EMPTY, id } from '../schemas/objects';

const scheduledType = z.enum(['direct', 'stream', 'private']);
// SPEC POST /scheduled_messages: a stream ID, or a list of user IDs, JSON-encoded.
const scheduledTo = z.union([param.safeInt, z.array(param.safeInt)]);

/** GET /scheduled_messages: the user's undelivered ones, by due time (api-notes §b). */
export const getScheduledMessages = userRoute(
  z.object({}),
  z.strictObject({ scheduled_messages: z.array(scheduledMessageSchema) }),
  ({ realm, user }) => ({
    scheduled_messages: pendingScheduledMessagesOf(realm, user.id).map(scheduledMessageObject),
  }),
);

/** POST /scheduled_messages (SPEC §Endpoints, feature level 179). */
export const postScheduledMessage = userRoute(
  z.object({
    type: scheduledType,
    to: json(scheduledTo),
    content: z.string(),
    topic: z.string().optional(),
    scheduled_delivery_timestamp: param.timestamp(),
  }),
  z.strictObject({ scheduled_message_id: id }),
  async ({ realm, user, frame }, p) => {
    const id = await doCreateScheduledMessage(realm, user, {
      type: p.type,
      to: p.to,
      content: p.content,
      topic: p.topic,
      scheduledTimestamp: p.scheduled_delivery_timestamp,
      client: clientName(frame),
    });
    return { scheduled_message_id: id };
  },
);

/** PATCH /scheduled_messages/{scheduled_message_id} (feature level 184). */
export const patchScheduledMessage = userRoute(
  z.object({
    scheduled_message_id: param.id(),
    type: scheduledType.optional(),
    to: json(scheduledTo.optional()),
    content: z.string().optional(),
    topic: z.string().optional(),
    scheduled_delivery_timestamp: param.optionalTimestamp(),
  }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doUpdateScheduledMessage(realm, user, p.scheduled_message_id, {
      type: p.type,
      to: p.to,
      content: p.content,
      topic: p.topic,
      scheduledTimestamp: p.scheduled_delivery_timestamp,
    });
    return {};
  },
);

/** DELETE /scheduled_messages/{scheduled_message_id}. */
export const deleteScheduledMessage = userRoute(z.object({ scheduled_message_id: param.id() }), EMPTY, async ({ realm, user }, p) => {
  await doDeleteScheduledMessage(realm, user, p.scheduled_message_id);
  return {};
});
