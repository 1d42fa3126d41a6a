import { z } from 'zod';
import { id, ids, timestamp } from './payload-fields';

/** Stream, subscription, user and typing events (api-notes §d); composed in workers/events/types.ts. */

// --- Streams and subscriptions ----------------------------------------------------------------

/** api-notes §d subscription add: the stream's own fields. */
const streamFields = {
  can_remove_subscribers_group_id: id,
  date_created: timestamp,
  description: z.string(),
  first_message_id: id.nullable(),
  history_public_to_subscribers: z.boolean(),
  invite_only: z.boolean(),
  is_announcement_only: z.boolean(),
  is_web_public: z.boolean(),
  message_retention_days: z.number().int().nullable(),
  name: z.string(),
  rendered_description: z.string(),
  stream_id: id,
  stream_post_policy: z.number().int(),
};
export const streamObjectSchema = z.strictObject(streamFields);

/** ... plus the subscriber's personal properties (null: inherit the user's setting). */
export const subscriptionObjectSchema = z.strictObject({
  ...streamFields,
  audible_notifications: z.boolean().nullable(),
  color: z.string(),
  desktop_notifications: z.boolean().nullable(),
  email_address: z.string(),
  email_notifications: z.boolean().nullable(),
  in_home_view: z.boolean(),
  is_muted: z.boolean(),
  pin_to_top: z.boolean(),
  push_notifications: z.boolean().nullable(),
  stream_weekly_traffic: z.number().int().nullable(),
  subscribers: ids.optional(),
  wildcard_mentions_notify: z.boolean().nullable(),
});

export const subscriptionEvent = z.discriminatedUnion('op', [
  z.strictObject({ type: z.literal('subscription'), op: z.literal('add'), subscriptions: z.array(subscriptionObjectSchema) }),
  z.strictObject({
    type: z.literal('subscription'),
    op: z.literal('remove'),
    subscriptions: z.array(z.strictObject({ name: z.string(), stream_id: id })),
  }),
  z.strictObject({
    type: z.literal('subscription'),
    op: z.literal('update'),
    stream_id: id,
    property: z.string(),
    value: z.union([z.boolean(), z.number(), z.string()]),
  }),
  z.strictObject({ type: z.literal('subscription'), op: z.literal('peer_add'), stream_ids: ids, user_ids: ids }),
  z.strictObject({ type: z.literal('subscription'), op: z.literal('peer_remove'), stream_ids: ids, user_ids: ids }),
]);

export const streamEvent = z.discriminatedUnion('op', [
  z.strictObject({ type: z.literal('stream'), op: z.literal('create'), streams: z.array(streamObjectSchema) }),
  z.strictObject({ type: z.literal('stream'), op: z.literal('delete'), streams: z.array(streamObjectSchema) }),
  z.strictObject({
    type: z.literal('stream'),
    op: z.literal('update'),
    stream_id: id,
    name: z.string(),
    property: z.string(),
    value: z.union([z.boolean(), z.number(), z.string(), z.null()]),
    rendered_description: z.string().optional(),
    history_public_to_subscribers: z.boolean().optional(),
    is_web_public: z.boolean().optional(),
  }),
]);

// --- Users --------------------------------------------------------------------------------------

const profileData = z.record(z.string(), z.strictObject({ value: z.string(), rendered_value: z.string().optional() }));

/** api-notes §d realm_user add: the person as GET /users shows them. */
export const personSchema = z.strictObject({
  user_id: id,
  email: z.string(),
  avatar_url: z.string().nullable(),
  avatar_version: z.number().int(),
  full_name: z.string(),
  is_admin: z.boolean(),
  is_billing_admin: z.boolean(),
  is_owner: z.boolean(),
  is_bot: z.boolean(),
  is_guest: z.boolean(),
  role: z.number().int(),
  is_active: z.boolean(),
  // SPEC User.profile_data: only for people, never for bots.
  profile_data: profileData.optional(),
  timezone: z.string(),
  date_joined: z.string(),
  delivery_email: z.string().nullable(),
  bot_type: z.number().int().nullable().optional(),
  bot_owner_id: id.nullable().optional(),
});

/** realm_user update: `user_id` plus exactly one of these groups of keys. */
export const personUpdate = z.union([
  z.strictObject({ user_id: id, full_name: z.string() }),
  z.strictObject({
    user_id: id,
    avatar_source: z.enum(['G', 'U']),
    avatar_url: z.string().nullable(),
    avatar_url_medium: z.string().nullable(),
    avatar_version: z.number().int(),
  }),
  z.strictObject({ user_id: id, email: z.string(), timezone: z.string() }),
  z.strictObject({ user_id: id, timezone: z.string() }),
  z.strictObject({ user_id: id, bot_owner_id: id }),
  z.strictObject({ user_id: id, role: z.number().int() }),
  z.strictObject({ user_id: id, is_billing_admin: z.boolean() }),
  z.strictObject({ user_id: id, delivery_email: z.string().nullable() }),
  z.strictObject({
    user_id: id,
    custom_profile_field: z.strictObject({ id, value: z.string().nullable(), rendered_value: z.string().optional() }),
  }),
  z.strictObject({ user_id: id, new_email: z.string() }),
]);

export const realmUserEvent = z.discriminatedUnion('op', [
  z.strictObject({ type: z.literal('realm_user'), op: z.literal('add'), person: personSchema }),
  z.strictObject({ type: z.literal('realm_user'), op: z.literal('update'), person: personUpdate }),
  z.strictObject({
    type: z.literal('realm_user'),
    op: z.literal('remove'),
    person: z.strictObject({ user_id: id, full_name: z.string() }),
  }),
]);

const typingPerson = z.strictObject({ user_id: id, email: z.string() });
function typingEventFor<Op extends 'start' | 'stop'>(op: Op) {
  const fields = { type: z.literal('typing'), op: z.literal(op), sender: typingPerson };
  return z.discriminatedUnion('message_type', [
    z.strictObject({ ...fields, message_type: z.literal('private'), recipients: z.array(typingPerson) }),
    z.strictObject({ ...fields, message_type: z.literal('stream'), stream_id: id, topic: z.string() }),
  ]);
}
export const typingEvent = z.discriminatedUnion('op', [typingEventFor('start'), typingEventFor('stop')]);
