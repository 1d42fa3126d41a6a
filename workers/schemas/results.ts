import { z } from 'zod';
import { serialized } from '../lib/contract';
import { realmUserSettingsDefaultsEvent } from '../events/org-payloads';
import { draftObjectSchema, profileFieldSchema, scheduledMessageSchema, userGroupSchema } from '../events/realm-payloads';
import { personSchema, streamObjectSchema, subscriptionObjectSchema } from '../events/stream-user-payloads';
import { id, ids, neverSubscribedSchema, presenceStateSchema, realmEmojiMapSchema, userStatusSchema } from './objects';

/* Success bodies of routes too large to declare beside their handler. */

const methodFlags = z.record(z.string(), z.boolean());

/** GET /server_settings (api-notes §b). */
export const serverSettingsSchema = z.strictObject({
  authentication_methods: methodFlags,
  external_authentication_methods: z.array(z.unknown()),
  service_feature_level: z.number().int(),
  service_version: z.string(),
  service_merge_base: z.string(),
  push_notifications_enabled: z.boolean(),
  is_incompatible: z.boolean(),
  email_auth_enabled: z.boolean(),
  require_email_format_usernames: z.boolean(),
  realm_uri: z.string(),
  realm_name: z.string(),
  realm_icon: z.string(),
  realm_description: z.string(),
  realm_web_public_access_enabled: z.boolean(),
});

/** GET, POST and DELETE /users/me/alert_words: the words after the change. */
export const alertWordsSchema = z.strictObject({ alert_words: z.array(z.string()) });

/** PATCH /realm: each changed setting with its new value (strings as "updated"). */
export const updatedRealmSettingsSchema = z.object({}).catchall(z.union([z.boolean(), z.number(), z.string(), z.null(), methodFlags]));

/** register's people without `is_active`: active and deactivated users come in separate lists. */
const registeredPerson = personSchema.omit({ is_active: true });

/**
 * POST /register (SPEC §Register response): the queue, the version, and each requested
 * type's state. The listed keys have their shapes checked; the realm's settings (`realm_*`,
 * `max_*`, the user's settings) are many scalars, checked against the reference OpenAPI by
 * test/events/register.test.ts rather than declared one by one here.
 */
export const registerResultSchema = z.looseObject({
  queue_id: z.string().nullable(),
  last_event_id: z.literal(-1),
  service_feature_level: z.number().int(),
  service_version: z.string(),
  service_merge_base: z.string(),
  realm_users: serialized(z.array(registeredPerson)).optional(),
  // The reference's User schema, is_active included; its prose says the key is absent here, but
  // clients (and the page) read it, and the reference's own User object allows it.
  realm_non_active_users: z.array(personSchema).optional(),
  cross_realm_bots: z.array(z.looseObject({ user_id: id, is_system_bot: z.boolean() })).optional(),
  subscriptions: z.array(subscriptionObjectSchema).optional(),
  unsubscribed: z.array(subscriptionObjectSchema).optional(),
  never_subscribed: z.array(neverSubscribedSchema).optional(),
  streams: z.array(streamObjectSchema).optional(),
  realm_user_groups: z.array(userGroupSchema).optional(),
  user_status: z.record(z.string(), userStatusSchema).optional(),
  presences: serialized(presenceStateSchema.shape.presences).optional(),
  server_timestamp: z.number().optional(),
  realm_emoji: realmEmojiMapSchema.optional(),
  custom_profile_fields: z.array(profileFieldSchema).optional(),
  drafts: z.array(draftObjectSchema).optional(),
  scheduled_messages: z.array(scheduledMessageSchema).optional(),
  alert_words: z.array(z.string()).optional(),
  starred_messages: ids.optional(),
  realm_user_settings_defaults: z
    .record(
      z.string(),
      z.union([
        realmUserSettingsDefaultsEvent.shape.value,
        // The choices a client offers: `available_notification_sounds`, `emojiset_choices`
        z.array(z.string()),
        z.array(z.strictObject({ key: z.string(), text: z.string() })),
      ]),
    )
    .optional(),
});
