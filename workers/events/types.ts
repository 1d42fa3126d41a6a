import { z } from 'zod';

/*
 * Every event payload as a client receives it from GET /events (api-notes §d, the reference
 * OpenAPI's event schemas, with the spec's neutral names), as ONE discriminated union: by
 * `type`, then by `op` where the event has one. Objects are strict where api-notes says the
 * keys are exact, so an extra or a missing key fails. Used by tests; the hot path never runs it.
 */

const id = z.number().int();
const ids = z.array(id);
const timestamp = z.number().int();

/** Every event carries its per-queue counter. */
const base = { id } as const;

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

const messageEvent = z.strictObject({
  ...base,
  type: z.literal('message'),
  message: messageObjectSchema,
  flags: z.array(z.string()),
  local_message_id: z.string().optional(),
});

const propagateMode = z.enum(['change_one', 'change_later', 'change_all']);

/** api-notes §d update_message: always-present keys, then per kind of edit. */
const updateMessageEvent = z.strictObject({
  ...base,
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
const deleteMessageEvent = z
  .strictObject({
    ...base,
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
  ...base,
  type: z.literal('reaction'),
  message_id: id,
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: z.enum(['unicode_emoji', 'realm_emoji', 'zulip_extra_emoji']),
  user_id: id,
  // api-notes §d: the legacy object says user_id, unlike message reactions' user.id.
  user: z.strictObject({ user_id: id, email: z.string(), full_name: z.string() }),
};
const reactionEvent = z.discriminatedUnion('op', [
  z.strictObject({ ...reactionFields, op: z.literal('add') }),
  z.strictObject({ ...reactionFields, op: z.literal('remove') }),
]);

const flagFields = {
  ...base,
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
const updateMessageFlagsEvent = z.discriminatedUnion('op', [
  z.strictObject({ ...flagFields, op: z.literal('add'), operation: z.literal('add') }),
  z.strictObject({
    ...flagFields,
    op: z.literal('remove'),
    operation: z.literal('remove'),
    // openapi update_message_flags remove: only when the flag is `read`.
    message_details: z.record(z.string(), messageDetails).optional(),
  }),
]);

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

const subscriptionEvent = z.discriminatedUnion('op', [
  z.strictObject({ ...base, type: z.literal('subscription'), op: z.literal('add'), subscriptions: z.array(subscriptionObjectSchema) }),
  z.strictObject({
    ...base,
    type: z.literal('subscription'),
    op: z.literal('remove'),
    subscriptions: z.array(z.strictObject({ name: z.string(), stream_id: id })),
  }),
  z.strictObject({
    ...base,
    type: z.literal('subscription'),
    op: z.literal('update'),
    stream_id: id,
    property: z.string(),
    value: z.union([z.boolean(), z.number(), z.string()]),
  }),
  z.strictObject({ ...base, type: z.literal('subscription'), op: z.literal('peer_add'), stream_ids: ids, user_ids: ids }),
  z.strictObject({ ...base, type: z.literal('subscription'), op: z.literal('peer_remove'), stream_ids: ids, user_ids: ids }),
]);

const streamEvent = z.discriminatedUnion('op', [
  z.strictObject({ ...base, type: z.literal('stream'), op: z.literal('create'), streams: z.array(streamObjectSchema) }),
  z.strictObject({ ...base, type: z.literal('stream'), op: z.literal('delete'), streams: z.array(streamObjectSchema) }),
  z.strictObject({
    ...base,
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
  profile_data: profileData,
  timezone: z.string(),
  date_joined: z.string(),
  delivery_email: z.string().nullable(),
  bot_type: z.number().int().nullable().optional(),
  bot_owner_id: id.nullable().optional(),
});

/** realm_user update: `user_id` plus exactly one of these groups of keys. */
const personUpdate = z.union([
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

const realmUserEvent = z.discriminatedUnion('op', [
  z.strictObject({ ...base, type: z.literal('realm_user'), op: z.literal('add'), person: personSchema }),
  z.strictObject({ ...base, type: z.literal('realm_user'), op: z.literal('update'), person: personUpdate }),
  z.strictObject({
    ...base,
    type: z.literal('realm_user'),
    op: z.literal('remove'),
    person: z.strictObject({ user_id: id, full_name: z.string() }),
  }),
]);

const typingPerson = z.strictObject({ user_id: id, email: z.string() });
function typingEventFor<Op extends 'start' | 'stop'>(op: Op) {
  const fields = { ...base, type: z.literal('typing'), op: z.literal(op), sender: typingPerson };
  return z.discriminatedUnion('message_type', [
    z.strictObject({ ...fields, message_type: z.literal('private'), recipients: z.array(typingPerson) }),
    z.strictObject({ ...fields, message_type: z.literal('stream'), stream_id: id, topic: z.string() }),
  ]);
}
const typingEvent = z.discriminatedUnion('op', [typingEventFor('start'), typingEventFor('stop')]);

// --- Settings -----------------------------------------------------------------------------------

const settingValue = z.union([z.boolean(), z.number(), z.string()]);

const userSettingsEvent = z.discriminatedUnion('op', [
  z.strictObject({
    ...base,
    type: z.literal('user_settings'),
    op: z.literal('update'),
    property: z.string(),
    value: settingValue,
    // api-notes §d: only when property = default_language.
    language_name: z.string().optional(),
  }),
]);

/** Legacy twins of user_settings, only for queues without `user_settings_object`. */
const updateDisplaySettingsEvent = z.strictObject({
  ...base,
  type: z.literal('update_display_settings'),
  user: z.string(),
  setting_name: z.string(),
  setting: settingValue,
  language_name: z.string().optional(),
});
const updateGlobalNotificationsEvent = z.strictObject({
  ...base,
  type: z.literal('update_global_notifications'),
  user: z.string(),
  notification_name: z.string(),
  setting: settingValue,
});

const realmEvent = z.discriminatedUnion('op', [
  z.strictObject({
    ...base,
    type: z.literal('realm'),
    op: z.literal('update'),
    property: z.string(),
    value: z.union([settingValue, z.null()]),
    extra_data: z.strictObject({ upload_quota: z.number().int() }).optional(),
  }),
  z.strictObject({
    ...base,
    type: z.literal('realm'),
    op: z.literal('update_dict'),
    property: z.enum(['default', 'icon', 'logo', 'night_logo']),
    data: z.record(z.string(), z.unknown()),
  }),
  z.strictObject({ ...base, type: z.literal('realm'), op: z.literal('deactivated'), realm_id: id }),
]);

// --- Realm data ---------------------------------------------------------------------------------

export const linkifierSchema = z.strictObject({ id, pattern: z.string(), url_template: z.string() });
const realmLinkifiersEvent = z.strictObject({ ...base, type: z.literal('realm_linkifiers'), realm_linkifiers: z.array(linkifierSchema) });

const realmPlaygroundsEvent = z.strictObject({
  ...base,
  type: z.literal('realm_playgrounds'),
  realm_playgrounds: z.array(z.strictObject({ id, name: z.string(), pygments_language: z.string(), url_prefix: z.string() })),
});

const realmEmojiEvent = z.discriminatedUnion('op', [
  z.strictObject({
    ...base,
    type: z.literal('realm_emoji'),
    op: z.literal('update'),
    realm_emoji: z.record(
      z.string(),
      z.strictObject({
        id: z.string(),
        name: z.string(),
        source_url: z.string(),
        still_url: z.string().nullable().optional(),
        deactivated: z.boolean(),
        author_id: id.nullable(),
      }),
    ),
  }),
]);

const customProfileFieldsEvent = z.strictObject({
  ...base,
  type: z.literal('custom_profile_fields'),
  fields: z.array(
    z.strictObject({
      id,
      type: z.number().int(),
      name: z.string(),
      hint: z.string(),
      field_data: z.string(),
      order: z.number().int(),
      display_in_profile_summary: z.boolean().optional(),
    }),
  ),
});

// --- Personal data ------------------------------------------------------------------------------

/** api-notes §d user_status: the user plus only the fields that changed. */
const userStatusEvent = z.strictObject({
  ...base,
  type: z.literal('user_status'),
  user_id: id,
  away: z.boolean().optional(),
  status_text: z.string().optional(),
  emoji_name: z.string().optional(),
  emoji_code: z.string().optional(),
  reaction_type: z.string().optional(),
});

const userTopicEvent = z.strictObject({
  ...base,
  type: z.literal('user_topic'),
  stream_id: id,
  topic_name: z.string(),
  last_updated: timestamp,
  // 0 = policy removed, 1 muted, 2 unmuted (api-notes §d).
  visibility_policy: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
});

const alertWordsEvent = z.strictObject({ ...base, type: z.literal('alert_words'), alert_words: z.array(z.string()) });

const mutedUsersEvent = z.strictObject({
  ...base,
  type: z.literal('muted_users'),
  muted_users: z.array(z.strictObject({ id, timestamp })),
});

/** api-notes §d scheduled_messages: sent to the owner only. */
export const scheduledMessageSchema = z.strictObject({
  scheduled_message_id: id,
  type: z.enum(['stream', 'private']),
  to: z.union([id, ids]),
  topic: z.string().optional(),
  content: z.string(),
  rendered_content: z.string(),
  scheduled_delivery_timestamp: timestamp,
  failed: z.boolean(),
});
const scheduledMessagesEvent = z.discriminatedUnion('op', [
  z.strictObject({ ...base, type: z.literal('scheduled_messages'), op: z.literal('add'), scheduled_messages: z.array(scheduledMessageSchema) }),
  z.strictObject({ ...base, type: z.literal('scheduled_messages'), op: z.literal('update'), scheduled_message: scheduledMessageSchema }),
  z.strictObject({ ...base, type: z.literal('scheduled_messages'), op: z.literal('remove'), scheduled_message_id: id }),
]);

const draftSchema = z.strictObject({
  id,
  type: z.enum(['stream', 'private', '']),
  to: ids,
  topic: z.string(),
  content: z.string(),
  timestamp,
});
const draftsEvent = z.discriminatedUnion('op', [
  z.strictObject({ ...base, type: z.literal('drafts'), op: z.literal('add'), drafts: z.array(draftSchema) }),
  z.strictObject({ ...base, type: z.literal('drafts'), op: z.literal('update'), draft: draftSchema }),
  z.strictObject({ ...base, type: z.literal('drafts'), op: z.literal('remove'), draft_id: id }),
]);

const attachmentObject = z.strictObject({
  id,
  name: z.string(),
  size: z.number().int(),
  path_id: z.string(),
  create_time: timestamp,
  messages: z.array(z.strictObject({ id, date_sent: timestamp })),
});
const attachmentEvent = z.discriminatedUnion('op', [
  z.strictObject({ ...base, type: z.literal('attachment'), op: z.literal('add'), attachment: attachmentObject, upload_space_used: z.number().int() }),
  z.strictObject({ ...base, type: z.literal('attachment'), op: z.literal('update'), attachment: attachmentObject, upload_space_used: z.number().int() }),
  z.strictObject({
    ...base,
    type: z.literal('attachment'),
    op: z.literal('remove'),
    attachment: z.strictObject({ id }),
    upload_space_used: z.number().int(),
  }),
]);

// --- Groups -------------------------------------------------------------------------------------

export const userGroupSchema = z.strictObject({
  id,
  name: z.string(),
  description: z.string(),
  members: ids,
  direct_subgroup_ids: ids,
  is_system_group: z.boolean(),
});
const groupFields = { ...base, type: z.literal('user_group'), group_id: id };
const userGroupEvent = z.discriminatedUnion('op', [
  z.strictObject({ ...base, type: z.literal('user_group'), op: z.literal('add'), group: userGroupSchema }),
  z.strictObject({
    ...groupFields,
    op: z.literal('update'),
    // api-notes §d: exactly one key.
    data: z.union([z.strictObject({ name: z.string() }), z.strictObject({ description: z.string() })]),
  }),
  z.strictObject({ ...groupFields, op: z.literal('add_members'), user_ids: ids }),
  z.strictObject({ ...groupFields, op: z.literal('remove_members'), user_ids: ids }),
  z.strictObject({ ...groupFields, op: z.literal('add_subgroups'), direct_subgroup_ids: ids }),
  z.strictObject({ ...groupFields, op: z.literal('remove_subgroups'), direct_subgroup_ids: ids }),
  z.strictObject({ ...groupFields, op: z.literal('remove') }),
]);

// --- Presence and the queue itself ----------------------------------------------------------------

const presenceEvent = z.strictObject({
  ...base,
  type: z.literal('presence'),
  user_id: id,
  email: z.string(),
  server_timestamp: z.number(),
  presence: z.record(
    z.string(),
    z.strictObject({ client: z.string(), status: z.enum(['active', 'idle']), timestamp, pushable: z.boolean() }),
  ),
});

const heartbeatEvent = z.strictObject({ ...base, type: z.literal('heartbeat') });

/** Every event a client can receive from GET /events. */
export const clientEventSchema = z.discriminatedUnion('type', [
  messageEvent,
  updateMessageEvent,
  deleteMessageEvent,
  reactionEvent,
  updateMessageFlagsEvent,
  subscriptionEvent,
  streamEvent,
  realmUserEvent,
  typingEvent,
  userSettingsEvent,
  updateDisplaySettingsEvent,
  updateGlobalNotificationsEvent,
  realmEvent,
  realmLinkifiersEvent,
  realmPlaygroundsEvent,
  realmEmojiEvent,
  userStatusEvent,
  userTopicEvent,
  userGroupEvent,
  attachmentEvent,
  customProfileFieldsEvent,
  alertWordsEvent,
  scheduledMessagesEvent,
  draftsEvent,
  mutedUsersEvent,
  presenceEvent,
  heartbeatEvent,
]);

export type ClientEventPayload = z.infer<typeof clientEventSchema>;
export type ClientEventType = ClientEventPayload['type'];

/** The declared `type` strings, for the check that nothing ships undeclared. */
export function declaredEventTypes(): string[] {
  return clientEventSchema.options.map((option) => {
    const values = option._zod.propValues?.['type'];
    return values ? [...values].map(String) : [];
  }).flat();
}
