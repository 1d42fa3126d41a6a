import { z } from 'zod';
import { doUpdateMessage } from '../actions/message-edit';
import { errors } from '../lib/errors';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { messageHistorySnapshots } from '../queries/message-history';
import { accessMessage } from '../queries/messages';
import { messageEditSettings } from '../queries/realm-settings';
import { EMPTY, messageSnapshotSchema } from '../schemas/objects';

/** PATCH /messages/{message_id} (SPEC §Endpoints): content, topic and stream edits; `subject` is a deprecated alias. */
export const patchMessage = userRoute(
  z.object({
    message_id: param.id(),
    topic: z.string().optional(),
    propagate_mode: z.enum(['change_one', 'change_later', 'change_all']).default('change_one'),
    send_notification_to_old_thread: param.bool(false),
    send_notification_to_new_thread: param.bool(true),
    content: z.string().optional(),
    stream_id: param.optionalInt(),
  }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doUpdateMessage(realm, user, {
      messageId: p.message_id,
      topic: p.topic,
      streamId: p.stream_id,
      content: p.content,
      propagateMode: p.propagate_mode,
      notifyOldThread: p.send_notification_to_old_thread,
      notifyNewThread: p.send_notification_to_new_thread,
    });
    return {};
  },
  { aliases: { subject: 'topic' } },
);

/** GET /messages/{message_id}/history (openapi get-message-history): snapshots, oldest first. */
export const getMessageHistory = userRoute(
  z.object({ message_id: param.id() }),
  z.strictObject({ message_history: z.array(messageSnapshotSchema) }),
  ({ realm, user }, p) => {
    if (!messageEditSettings(realm).allow_edit_history) throw errors.editHistoryDisabled();
    const { message } = accessMessage(realm, user, p.message_id);
    return { message_history: messageHistorySnapshots(message) };
  },
);
