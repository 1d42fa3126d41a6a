import { z } from 'zod';
import { messageObjectSchema } from '../events/message-payloads';
import { id, ids, timestamp } from '../events/payload-fields';
import { botSchema } from '../events/account-payloads';
import { personSchema, streamObjectSchema, subscriptionObjectSchema } from '../events/stream-user-payloads';

/*
 * The API's objects as routes answer them (SPEC §Resources; the reference OpenAPI's schemas,
 * with the spec's neutral names), beside those the events already declare (workers/events/).
 * The queries that build these objects are typed from them, and CONTRACT_CHECKS validates
 * every answer against them (workers/lib/contract.ts).
 */

/** A success body with nothing beside `result` and `msg`. */
export const EMPTY = z.strictObject({});

/** SPEC User, as GET /users and GET /users/{id} show it (realm_user add carries the same). */
export const userObjectSchema = personSchema;
export type UserObject = z.input<typeof userObjectSchema>;

/** GET /users/me: the caller, with what only they see. */
export const ownUserSchema = z.strictObject({
  avatar_url: z.string().nullable(),
  avatar_version: z.number().int(),
  email: z.string(),
  full_name: z.string(),
  is_admin: z.boolean(),
  is_owner: z.boolean(),
  is_billing_admin: z.boolean(),
  is_guest: z.boolean(),
  is_bot: z.boolean(),
  is_active: z.boolean(),
  role: z.number().int(),
  timezone: z.string(),
  date_joined: z.string(),
  max_message_id: z.number().int(),
  user_id: id,
  delivery_email: z.string(),
  profile_data: personSchema.shape.profile_data,
});

/** SPEC Stream; `is_default` only where GET /streams was asked `include_default`. */
export const listedStreamSchema = streamObjectSchema.extend({ is_default: z.boolean().optional() });
export type StreamObject = z.input<typeof listedStreamSchema>;

/** SPEC Subscription: the stream with the subscriber's own properties. */
export type SubscriptionObject = z.input<typeof subscriptionObjectSchema>;
/** A subscriber's own properties of a stream (SPEC Subscription, beside the stream's fields). */
export type PersonalProperties = Omit<SubscriptionObject, keyof z.input<typeof streamObjectSchema> | 'subscribers'>;
/** register's `never_subscribed`: the stream with its subscribers when asked, no personal properties. */
export const neverSubscribedSchema = streamObjectSchema.extend({
  subscribers: ids.optional(),
  stream_weekly_traffic: z.number().int().nullable(),
});

/** SPEC Message, as every viewer sees it (the message event's object). */
export type MessageObject = z.input<typeof messageObjectSchema>;
export type FetchedMessage = z.input<typeof fetchedMessageSchema>;

/** A message as GET /messages and GET /messages/{id} give it: with the viewer's flags, and search highlights. */
export const fetchedMessageSchema = messageObjectSchema.extend({
  flags: z.array(z.string()),
  match_content: z.string().optional(),
  match_subject: z.string().optional(),
});

/** The legacy bot listing of GET /bots. */
export const ownBotSchema = z.strictObject({
  username: z.string(),
  full_name: z.string(),
  api_key: z.string(),
  avatar_url: z.string(),
  default_sending_stream: z.string().nullable(),
  default_events_register_stream: z.string().nullable(),
  default_all_public_streams: z.boolean(),
});

/** The stream settings of a bot, as its listings show them. */
export const botDefaultsSchema = ownBotSchema.pick({
  default_sending_stream: true,
  default_events_register_stream: true,
  default_all_public_streams: true,
});
export type BotDefaults = z.input<typeof botDefaultsSchema>;

/** POST /bots: the new bot's keys and stream settings. */
export const createdBotSchema = botDefaultsSchema.extend({ user_id: id, api_key: z.string(), avatar_url: z.string() });

/** PATCH /bots/{bot_id}: the bot as it now is (the public server's answer). */
export const updatedBotSchema = botDefaultsSchema.extend({
  full_name: z.string(),
  avatar_url: z.string(),
  service_interface: z.number().int(),
  service_payload_url: z.string().nullable(),
  config_data: z.record(z.string(), z.string()).nullable(),
  bot_owner: z.string().optional(),
});

export { botSchema };
export type BotObject = z.input<typeof botSchema>;

/** A user's status (SPEC User status): only what is set. */
export const userStatusSchema = z.strictObject({
  away: z.literal(true).optional(),
  status_text: z.string().optional(),
  emoji_name: z.string().optional(),
  emoji_code: z.string().optional(),
  reaction_type: z.string().optional(),
});
export type UserStatusObject = z.input<typeof userStatusSchema>;

export const legacyClientPresence = z.strictObject({
  client: z.string(),
  status: z.enum(['active', 'idle']),
  timestamp,
  pushable: z.boolean().optional(),
});
export type LegacyClientPresence = z.input<typeof legacyClientPresence>;
/** One user's presence: legacy (by client, and `aggregated`) or slim (SPEC POST /register slim_presence). */
export const userPresenceSchema = z.union([
  z.record(z.string(), legacyClientPresence),
  z.strictObject({ active_timestamp: timestamp, idle_timestamp: timestamp }),
]);
/** The `presence` state: everyone visible, keyed by email (legacy) or user ID (slim). */
export const presenceStateSchema = z.strictObject({
  presences: z.record(z.string(), userPresenceSchema),
  server_timestamp: z.number(),
});
export type PresenceState = z.input<typeof presenceStateSchema>;

/** A snapshot of GET /messages/{message_id}/history. */
export const messageSnapshotSchema = z.strictObject({
  content: z.string(),
  rendered_content: z.string(),
  timestamp,
  topic: z.string(),
  user_id: id.nullable(),
  prev_topic: z.string().optional(),
  prev_content: z.string().optional(),
  prev_rendered_content: z.string().optional(),
  content_html_diff: z.string().optional(),
  prev_stream: id.optional(),
  stream: id.optional(),
});
export type MessageSnapshot = z.input<typeof messageSnapshotSchema>;

/** A realm emoji (SPEC GET /realm/emoji), keyed by its ID. */
export const realmEmojiSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  source_url: z.string(),
  still_url: z.string().nullable(),
  deactivated: z.boolean(),
  author_id: id.nullable(),
});
export const realmEmojiMapSchema = z.record(z.string(), realmEmojiSchema);
export type RealmEmojiMap = z.input<typeof realmEmojiMapSchema>;

export { ids, id, timestamp };
