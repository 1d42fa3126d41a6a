import { z } from 'zod';
import { doSendMessage } from '../actions/messages';
import { renderMessage } from '../actions/render-message';
import { clientName } from '../lib/client';
import { param } from '../lib/params';
import { decodeRecipients } from '../lib/recipients';
import { userRoute } from '../lib/route';
import { accessMessage, messageObject } from '../queries/messages';
import { messageEditSettings } from '../queries/realm-settings';
import { fetchedMessageSchema, id } from '../schemas/objects';

/** POST /messages (SPEC §Endpoints); `private` and `subject` are deprecated aliases. */
export const postMessages = userRoute(
  z.object({
    type: z.enum(['stream', 'direct', 'private']),
    to: z.string(),
    content: z.string(),
    topic: z.string().optional(),
    queue_id: z.string().optional(),
    local_id: z.string().optional(),
    client: z.string().optional(),
  }),
  z.strictObject({ id }),
  async ({ realm, user, frame }, p) => {
    const to = decodeRecipients(p.to);
    const id = await doSendMessage(realm, user, {
      target: p.type === 'stream' ? { kind: 'stream', to, topic: p.topic } : { kind: 'direct', to },
      content: p.content,
      client: clientName(frame, p.client),
      queueId: p.queue_id,
      localId: p.local_id,
    });
    return { id };
  },
  { aliases: { subject: 'topic' } },
);

/** GET /messages/{message_id} (SPEC §Endpoints, feature level 120). */
export const getMessage = userRoute(
  z.object({ message_id: param.id(), apply_markdown: param.bool(true) }),
  z.strictObject({ raw_content: z.string(), message: fetchedMessageSchema }),
  ({ realm, user }, p) => {
    const { message, flags } = accessMessage(realm, user, p.message_id);
    const object = messageObject(realm, message, flags, p.apply_markdown);
    // SPEC Message.edit_history: absent when the organization disabled viewing edit history.
    if (!messageEditSettings(realm).allow_edit_history) delete object.edit_history;
    return { raw_content: message.content, message: object };
  },
);

/**
 * POST /messages/render: a preview of what sending `content` would produce. Empty content is
 * no error here (unlike sending): the public server renders it to an empty string.
 */
export const postRenderMessage = userRoute(
  z.object({ content: z.string() }),
  z.strictObject({ rendered: z.string() }),
  async ({ realm, user }, p) => {
    return { rendered: (await renderMessage(realm, user, p.content, '')).html };
  },
);
