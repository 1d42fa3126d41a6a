import { z } from 'zod';
import { id, ids, REACTION_TYPES, timestamp } from './payload-fields';

/** Message events as clients receive them (api-notes §d); composed in workers/events/types.ts. */

// --- Messages ---------------------------------------------------------------------------------

const topicLink = z.strictObject({ text: z.string(), url: z.string() });

const dmRecipient = z.strictObject({ id, email: z.string(), full_name: z.string(), is_mirror_dummy: z.boolean() });

const messageReaction = z.strictObject({
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: z.string(),
  user_id: id,
  user: z.strictObject({ id, email: z.string(), full_name: z.string(), is_mirror_dummy: z.boolean() }),
});

/** api-notes §d message: the message object, without `flags` (they travel beside it). */
export const messageObjectSchema = z.strictObject({
  id,
  sender_id: id,
  sender_email: z.string(),
  sender_full_name: z.string(),
  sender_realm_str: z.string(),
  avatar_url: z.string().nullable(),
  client: z.string(),
  content: z.string(),
  content_type: z.enum(['text/html', 'text/x-markdown']),
  display_recipient: z.union([z.string(), z.array(dmRecipient)]),
  recipient_id: id,
  is_me_message: z.boolean(),
  reactions: z.array(messageReaction),
  submessages: z.array(z.unknown()),
  subject: z.string(),
  topic_links: z.array(topicLink),
  timestamp,
  type: z.enum(['stream', 'private']),
  stream_id: id.optional(),
  last_edit_timestamp: timestamp.optional(),
  edit_history: z.array(z.record(z.string(), z.unknown())).optional(),
});

export const messageEvent = z.strictObject({
  type: z.literal('message'),
  message: messageObjectSchema,
  flags: z.array(z.string()),
  local_message_id: z.string().optional(),
});

const propagateMode = z.enum(['change_one', 'change_later', 'change_all']);

/** api-notes §d update_message: always-present keys, then per kind of edit. */
export const updateMessageEvent = z.strictObject({
  type: z.literal('update_message'),
  user_id: id.nullable(),
  edit_timestamp: timestamp,
  message_id: id,
  message_ids: ids,
  flags: z.array(z.string()),
  rendering_only: z.boolean(),
  stream_id: id.optional(),
  stream_name: z.string().optional(),
  orig_content: z.string().optional(),
  orig_rendered_content: z.string().optional(),
  prev_rendered_content_version: z.number().int().optional(),
  content: z.string().optional(),
  rendered_content: z.string().optional(),
  is_me_message: z.boolean().optional(),
  orig_subject: z.string().optional(),
  subject: z.string().optional(),
  topic_links: z.array(topicLink).optional(),
  propagate_mode: propagateMode.optional(),
  new_stream_id: id.optional(),
});

/** With `bulk_message_deletion`: all IDs at once; without it one event per `message_id`. */
export const deleteMessageEvent = z
  .strictObject({
    type: z.literal('delete_message'),
    message_type: z.enum(['stream', 'private']),
    message_ids: ids.optional(),
    message_id: id.optional(),
    stream_id: id.optional(),
    topic: z.string().optional(),
  })
  .refine((event) => (event.message_ids === undefined) !== (event.message_id === undefined), {
    message: 'exactly one of message_ids (bulk) and message_id (one by one)',
  })
  .refine((event) => (event.message_type === 'stream') === (event.stream_id !== undefined && event.topic !== undefined), {
    message: 'stream_id and topic exactly for stream messages',
  });

const reactionFields = {
  type: z.literal('reaction'),
  message_id: id,
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: z.enum(REACTION_TYPES),
  user_id: id,
  // api-notes §d: the legacy object says user_id, unlike message reactions' user.id.
  user: z.strictObject({ user_id: id, email: z.string(), full_name: z.string() }),
};
export const reactionEvent = z.discriminatedUnion('op', [
  z.strictObject({ ...reactionFields, op: z.literal('add') }),
  z.strictObject({ ...reactionFields, op: z.literal('remove') }),
]);

const flagFields = {
  type: z.literal('update_message_flags'),
  flag: z.string(),
  messages: ids,
  all: z.boolean(),
};
const messageDetails = z.strictObject({
  type: z.enum(['stream', 'private']),
  mentioned: z.boolean().optional(),
  user_ids: ids.optional(),
  stream_id: id.optional(),
  topic: z.string().optional(),
  unmuted_stream_msg: z.boolean().optional(),
});
export const updateMessageFlagsEvent = z.discriminatedUnion('op', [
  z.strictObject({ ...flagFields, op: z.literal('add'), operation: z.literal('add') }),
  z.strictObject({
    ...flagFields,
    op: z.literal('remove'),
    operation: z.literal('remove'),
    // openapi update_message_flags remove: only when the flag is `read`.
    message_details: z.record(z.string(), messageDetails).optional(),
  }),
]);
