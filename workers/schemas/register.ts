import { z } from 'zod';
import { serialized } from '../lib/contract';
import { botSchema } from '../events/account-payloads';
import {
  draftObjectSchema,
  linkifierSchema,
  mutedUsersEvent,
  profileFieldSchema,
  realmPlaygroundsEvent,
  scheduledMessageSchema,
  userGroupSchema,
} from '../events/realm-payloads';
import { defaultStreamGroupsEvent, mutedTopicsEvent } from '../events/stream-prefs-payloads';
import { personSchema, streamObjectSchema, subscriptionObjectSchema } from '../events/stream-user-payloads';
import { id, ids, neverSubscribedSchema, presenceStateSchema, realmEmojiMapSchema, timestamp, userStatusSchema } from './objects';
import { realmStateSchema } from './realm-settings';
import { displaySettingsState, notificationSettingsState, realmUserSettingsDefaultsSchema, userSettingsStateSchema } from './user-settings';

/*
 * POST /register (SPEC §Register response; api-notes §e): the queue, the version, and the
 * state of each fetched data type. Every key is declared with its type, under the fetch type
 * that brings it: `fetch_event_types` (else `event_types`) decides which types come, and a
 * type that comes brings all its keys.
 */

/** register's people without `is_active`: active and deactivated users come in separate lists. */
const registeredPerson = personSchema.omit({ is_active: true });

/** `realm_user`: the people, the system bots, and the caller's own keys and permissions. */
const realmUserState = {
  realm_users: serialized(z.array(registeredPerson)),
  // The reference's User schema, is_active included; its prose says the key is absent here, but
  // clients (and the page) read it, and the reference's own User object allows it.
  realm_non_active_users: z.array(personSchema),
  cross_realm_bots: z.array(registeredPerson.extend({ is_system_bot: z.boolean() })),
  avatar_source: z.string(),
  avatar_url: z.string(),
  avatar_url_medium: z.string(),
  can_create_private_streams: z.boolean(),
  can_create_public_streams: z.boolean(),
  can_create_streams: z.boolean(),
  can_create_web_public_streams: z.boolean(),
  can_subscribe_other_users: z.boolean(),
  can_invite_others_to_realm: z.boolean(),
  is_admin: z.boolean(),
  is_owner: z.boolean(),
  is_moderator: z.boolean(),
  is_guest: z.boolean(),
  is_billing_admin: z.boolean(),
  user_id: id,
  email: z.string(),
  delivery_email: z.string(),
  full_name: z.string(),
};

/** `unread_msgs` (api-notes §e): the unread messages grouped by conversation. */
const unreadMessagesSchema = z.strictObject({
  count: z.number().int(),
  pms: z.array(z.strictObject({ other_user_id: id, sender_id: id, message_ids: ids })),
  streams: z.array(z.strictObject({ stream_id: id, topic: z.string(), unread_message_ids: ids })),
  huddles: z.array(z.strictObject({ user_ids_string: z.string(), message_ids: ids })),
  mentions: ids,
  old_unreads_missing: z.boolean(),
});

/** Each fetch type and the keys it brings (api-notes §e); no key belongs to two. */
export const FETCH_TYPES = {
  realm: realmStateSchema.shape,
  custom_profile_fields: {
    custom_profile_fields: z.array(profileFieldSchema),
    custom_profile_field_types: z.record(z.string(), z.strictObject({ id, name: z.string() })),
  },
  stop_words: { stop_words: z.array(z.string()) },
  realm_emoji: { realm_emoji: realmEmojiMapSchema },
  realm_linkifiers: { realm_linkifiers: z.array(linkifierSchema) },
  // Always empty since the public API's feature level 176 (the legacy linkifier tuples).
  realm_filters: { realm_filters: z.array(z.never()) },
  realm_playgrounds: { realm_playgrounds: realmPlaygroundsEvent.shape.realm_playgrounds },
  realm_domains: { realm_domains: z.array(z.strictObject({ domain: z.string(), allow_subdomains: z.boolean() })) },
  user_settings: { user_settings: userSettingsStateSchema },
  update_display_settings: displaySettingsState,
  update_global_notifications: notificationSettingsState,
  realm_user_settings_defaults: { realm_user_settings_defaults: realmUserSettingsDefaultsSchema },
  realm_user: realmUserState,
  realm_bot: { realm_bots: z.array(botSchema) },
  realm_user_groups: { realm_user_groups: serialized(z.array(userGroupSchema)) },
  user_status: { user_status: z.record(z.string(), userStatusSchema) },
  presence: { ...presenceStateSchema.shape, presences: serialized(presenceStateSchema.shape.presences) },
  muted_users: { muted_users: mutedUsersEvent.shape.muted_users },
  subscription: {
    subscriptions: z.array(subscriptionObjectSchema),
    unsubscribed: z.array(subscriptionObjectSchema),
    never_subscribed: z.array(neverSubscribedSchema),
  },
  stream: { streams: z.array(streamObjectSchema) },
  default_streams: { realm_default_streams: z.array(streamObjectSchema) },
  default_stream_groups: { realm_default_stream_groups: defaultStreamGroupsEvent.shape.default_stream_groups },
  /** -1 when the user has no message. */
  message: { max_message_id: z.number().int() },
  // Only when both `message` and `update_message_flags` are fetched.
  update_message_flags: { unread_msgs: unreadMessagesSchema },
  starred_messages: { starred_messages: ids },
  recent_private_conversations: {
    recent_private_conversations: z.array(z.strictObject({ max_message_id: id, user_ids: ids })),
  },
  alert_words: { alert_words: z.array(z.string()) },
  scheduled_messages: { scheduled_messages: z.array(scheduledMessageSchema) },
  drafts: { drafts: z.array(draftObjectSchema) },
  user_topic: {
    user_topics: z.array(
      z.strictObject({ stream_id: id, topic_name: z.string(), last_updated: timestamp, visibility_policy: z.number().int() }),
    ),
  },
  // The legacy list, only for clients that do not fetch `user_topic`.
  muted_topics: { muted_topics: mutedTopicsEvent.shape.muted_topics },
};

/** The intersection of a union's members (here: all fetch types' shapes in one). */
type AllOf<U> = (U extends unknown ? (member: U) => void : never) extends (member: infer All) => void ? All : never;
type StateShape = AllOf<(typeof FETCH_TYPES)[keyof typeof FETCH_TYPES]>;
const stateShape = Object.assign({}, ...Object.values(FETCH_TYPES)) as StateShape;

/** Every fetch type's keys, each optional: the caller's fetch types decide which are present. */
export const registerStateSchema = z.strictObject(stateShape).partial();
export type RegisterState = z.input<typeof registerStateSchema>;

/** The fetch types whose keys came only in part: a fetched type brings every key it has. */
function partlyPresent(state: Record<string, unknown>): string[] {
  const partial: string[] = [];
  for (const [type, shape] of Object.entries(FETCH_TYPES)) {
    const missing = Object.keys(shape).filter((key) => !(key in state));
    if (missing.length > 0 && missing.length < Object.keys(shape).length) partial.push(`${type} without ${missing.join(', ')}`);
  }
  return partial;
}

export const registerResultSchema = registerStateSchema
  .extend({
    queue_id: z.string().nullable(),
    last_event_id: z.literal(-1),
    service_feature_level: z.number().int(),
    service_version: z.string(),
    service_merge_base: z.string(),
  })
  .superRefine((body, ctx) => {
    for (const message of partlyPresent(body)) ctx.addIssue({ code: 'custom', message: `a fetch type came in part: ${message}` });
  });
