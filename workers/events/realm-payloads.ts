import { z } from 'zod';
import { id, ids, timestamp } from './payload-fields';

/** Settings, realm data, personal data, group, presence and heartbeat events (api-notes §d); composed in workers/events/types.ts. */

// --- Settings -----------------------------------------------------------------------------------

const settingValue = z.union([z.boolean(), z.number(), z.string()]);

export const userSettingsEvent = z.discriminatedUnion('op', [
  z.strictObject({
    type: z.literal('user_settings'),
    op: z.literal('update'),
    property: z.string(),
    value: settingValue,
    // api-notes §d: only when property = default_language.
    language_name: z.string().optional(),
  }),
]);

/** Legacy twins of user_settings, only for queues without `user_settings_object`. */
export const updateDisplaySettingsEvent = z.strictObject({
  type: z.literal('update_display_settings'),
  user: z.string(),
  setting_name: z.string(),
  setting: settingValue,
  language_name: z.string().optional(),
});
export const updateGlobalNotificationsEvent = z.strictObject({
  type: z.literal('update_global_notifications'),
  user: z.string(),
  notification_name: z.string(),
  setting: settingValue,
});

export const realmEvent = z.discriminatedUnion('op', [
  z.strictObject({
    type: z.literal('realm'),
    op: z.literal('update'),
    property: z.string(),
    value: z.union([settingValue, z.null()]),
    extra_data: z.strictObject({ upload_quota: z.number().int() }).optional(),
  }),
  z.strictObject({
    type: z.literal('realm'),
    op: z.literal('update_dict'),
    property: z.enum(['default', 'icon', 'logo', 'night_logo']),
    data: z.record(z.string(), z.unknown()),
  }),
  z.strictObject({ type: z.literal('realm'), op: z.literal('deactivated'), realm_id: id }),
]);

// --- Realm data ---------------------------------------------------------------------------------

export const linkifierSchema = z.strictObject({ id, pattern: z.string(), url_template: z.string() });
export const realmLinkifiersEvent = z.strictObject({
  type: z.literal('realm_linkifiers'),
  realm_linkifiers: z.array(linkifierSchema),
});

export const realmPlaygroundsEvent = z.strictObject({
  type: z.literal('realm_playgrounds'),
  realm_playgrounds: z.array(z.strictObject({ id, name: z.string(), lexer_language: z.string(), url_prefix: z.string() })),
});

export const realmEmojiEvent = z.discriminatedUnion('op', [
  z.strictObject({
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

/** A custom profile field (openapi CustomProfileField), as register, GET and the event show it. */
export const profileFieldSchema = z.strictObject({
  id,
  type: z.number().int(),
  name: z.string(),
  hint: z.string(),
  field_data: z.string(),
  order: z.number().int(),
  display_in_profile_summary: z.boolean().optional(),
});

export const customProfileFieldsEvent = z.strictObject({
  type: z.literal('custom_profile_fields'),
  fields: z.array(profileFieldSchema),
});

// --- Personal data ------------------------------------------------------------------------------

/** api-notes §d user_status: the user plus only the fields that changed. */
export const userStatusEvent = z.strictObject({
  type: z.literal('user_status'),
  user_id: id,
  away: z.boolean().optional(),
  status_text: z.string().optional(),
  emoji_name: z.string().optional(),
  emoji_code: z.string().optional(),
  reaction_type: z.string().optional(),
});

export const userTopicEvent = z.strictObject({
  type: z.literal('user_topic'),
  stream_id: id,
  topic_name: z.string(),
  last_updated: timestamp,
  // 0 = policy removed, 1 muted, 2 unmuted (api-notes §d).
  visibility_policy: z.union([z.literal(0), z.literal(1), z.literal(2)]),
});

export const alertWordsEvent = z.strictObject({ type: z.literal('alert_words'), alert_words: z.array(z.string()) });

/** The legacy reading pointer moved (POST /users/me/pointer); to the user only. */
export const pointerEvent = z.strictObject({ type: z.literal('pointer'), pointer: id });

export const mutedUsersEvent = z.strictObject({
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
export const scheduledMessagesEvent = z.discriminatedUnion('op', [
  z.strictObject({
    type: z.literal('scheduled_messages'),
    op: z.literal('add'),
    scheduled_messages: z.array(scheduledMessageSchema),
  }),
  z.strictObject({ type: z.literal('scheduled_messages'), op: z.literal('update'), scheduled_message: scheduledMessageSchema }),
  z.strictObject({ type: z.literal('scheduled_messages'), op: z.literal('remove'), scheduled_message_id: id }),
]);

/** openapi Draft, as GET /drafts and the drafts events show it. */
export const draftObjectSchema = z.strictObject({
  id,
  type: z.enum(['stream', 'private', '']),
  to: ids,
  topic: z.string(),
  content: z.string(),
  timestamp,
});
export const draftsEvent = z.discriminatedUnion('op', [
  z.strictObject({ type: z.literal('drafts'), op: z.literal('add'), drafts: z.array(draftObjectSchema) }),
  z.strictObject({ type: z.literal('drafts'), op: z.literal('update'), draft: draftObjectSchema }),
  z.strictObject({ type: z.literal('drafts'), op: z.literal('remove'), draft_id: id }),
]);

/** The attachment of GET /attachments and the attachment events. */
export const attachmentObjectSchema = z.strictObject({
  id,
  name: z.string(),
  size: z.number().int(),
  path_id: z.string(),
  create_time: timestamp,
  messages: z.array(z.strictObject({ id, date_sent: timestamp })),
});
export const attachmentEvent = z.discriminatedUnion('op', [
  z.strictObject({
    type: z.literal('attachment'),
    op: z.literal('add'),
    attachment: attachmentObjectSchema,
    upload_space_used: z.number().int(),
  }),
  z.strictObject({
    type: z.literal('attachment'),
    op: z.literal('update'),
    attachment: attachmentObjectSchema,
    upload_space_used: z.number().int(),
  }),
  z.strictObject({
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
const groupFields = { type: z.literal('user_group'), group_id: id };
export const userGroupEvent = z.discriminatedUnion('op', [
  z.strictObject({ type: z.literal('user_group'), op: z.literal('add'), group: userGroupSchema }),
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

export const presenceEvent = z.strictObject({
  type: z.literal('presence'),
  user_id: id,
  email: z.string(),
  server_timestamp: z.number(),
  presence: z.record(
    z.string(),
    z.strictObject({ client: z.string(), status: z.enum(['active', 'idle']), timestamp, pushable: z.boolean() }),
  ),
});

export const heartbeatEvent = z.strictObject({ type: z.literal('heartbeat') });
