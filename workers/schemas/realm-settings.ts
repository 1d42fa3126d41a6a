import { z } from 'zod';

/*
 * The organization's settings on the wire: register's `realm` fetch type (api-notes §e
 * `realm_*`, the `max_*` limits and the server's facts) and PATCH /realm's answer. Each key is
 * declared with its exact type, so an added, missing or re-typed one fails CONTRACT_CHECKS.
 */

const int = z.number().int();
/** A time limit in seconds, or null for none (api-notes §e: "Will not be 0"). */
const timeLimit = int.positive().nullable();
/** A choice a client offers, keyed by its name (video-call providers, GIF ratings). */
const namedChoices = z.record(z.string(), z.strictObject({ name: z.string(), id: int }));

/** Method name → enabled (`realm_authentication_methods`, PATCH /realm `authentication_methods`). */
export const authenticationMethodsSchema = z.record(z.string(), z.boolean());

/** The settings PATCH /realm changes, as register shows them (`realm_` + the setting's name). */
const realmSettingsShape = {
  realm_add_custom_emoji_policy: int,
  realm_allow_edit_history: z.boolean(),
  realm_allow_message_editing: z.boolean(),
  realm_avatar_changes_disabled: z.boolean(),
  realm_bot_creation_policy: int,
  realm_create_private_stream_policy: int,
  realm_create_public_stream_policy: int,
  realm_create_web_public_stream_policy: int,
  realm_default_code_block_language: z.string(),
  realm_default_language: z.string(),
  realm_delete_own_message_policy: int,
  realm_digest_emails_enabled: z.boolean(),
  realm_digest_weekday: int,
  realm_disallow_disposable_email_addresses: z.boolean(),
  realm_edit_topic_policy: int,
  realm_email_changes_disabled: z.boolean(),
  realm_emails_restricted_to_domains: z.boolean(),
  realm_enable_read_receipts: z.boolean(),
  realm_enable_spectator_access: z.boolean(),
  realm_giphy_rating: int,
  realm_inline_image_preview: z.boolean(),
  realm_inline_url_embed_preview: z.boolean(),
  realm_invite_required: z.boolean(),
  realm_invite_to_realm_policy: int,
  realm_invite_to_stream_policy: int,
  realm_mandatory_topics: z.boolean(),
  realm_message_content_allowed_in_email_notifications: z.boolean(),
  /** -1: unlimited. */
  realm_message_retention_days: int,
  realm_move_messages_between_streams_policy: int,
  realm_name_changes_disabled: z.boolean(),
  realm_org_type: int,
  realm_presence_disabled: z.boolean(),
  realm_private_message_policy: int,
  realm_send_welcome_emails: z.boolean(),
  /** -1: nowhere. */
  realm_signup_notifications_stream_id: int,
  realm_user_group_edit_policy: int,
  realm_video_chat_provider: int,
  realm_waiting_period_threshold: int,
  realm_want_advertise_in_communities_directory: z.boolean(),
  realm_wildcard_mention_policy: int,
  realm_message_content_edit_limit_seconds: timeLimit,
  realm_message_content_delete_limit_seconds: timeLimit,
  realm_move_messages_within_stream_limit_seconds: timeLimit,
  realm_move_messages_between_streams_limit_seconds: timeLimit,
  realm_name: z.string(),
  realm_description: z.string(),
  /** -1: none. */
  realm_notifications_stream_id: int,
  realm_authentication_methods: authenticationMethodsSchema,
};

/** What register tells of the organization beyond its settings: branding, plan, derived flags. */
const realmFactsShape = {
  realm_uri: z.string(),
  realm_upload_quota_mib: int.nullable(),
  realm_icon_url: z.string(),
  realm_icon_source: z.string(),
  realm_logo_url: z.string(),
  realm_logo_source: z.string(),
  realm_night_logo_url: z.string(),
  realm_night_logo_source: z.string(),
  realm_bot_domain: z.string(),
  realm_available_video_chat_providers: namedChoices,
  realm_email_auth_enabled: z.boolean(),
  realm_password_auth_enabled: z.boolean(),
  realm_is_zephyr_mirror_realm: z.boolean(),
  realm_plan_type: int,
  realm_push_notifications_enabled: z.boolean(),
  realm_default_external_accounts: z.record(
    z.string(),
    z.strictObject({ name: z.string(), text: z.string(), hint: z.string(), url_pattern: z.string() }),
  ),
};

/** The limits clients enforce before sending (SPEC §Limits) and the server's own facts. */
const serverShape = {
  max_message_length: int,
  max_topic_length: int,
  max_stream_name_length: int,
  max_stream_description_length: int,
  max_file_upload_size_mib: int,
  max_avatar_file_size_mib: int,
  max_icon_file_size_mib: int,
  max_logo_file_size_mib: int,
  settings_send_digest_emails: z.boolean(),
  server_generation: int,
  development_environment: z.boolean(),
  service_plan_is_not_limited: z.boolean(),
  upgrade_text_for_wide_organization_logo: z.string(),
  password_min_length: int,
  password_min_guesses: int,
  server_inline_image_preview: z.boolean(),
  server_inline_url_embed_preview: z.boolean(),
  server_avatar_changes_disabled: z.boolean(),
  server_name_changes_disabled: z.boolean(),
  server_web_public_streams_enabled: z.boolean(),
  giphy_rating_options: namedChoices,
  server_emoji_data_url: z.string(),
  server_needs_upgrade: z.boolean(),
  event_queue_longpoll_timeout_seconds: int,
  jitsi_server_url: z.string(),
  server_presence_ping_interval_seconds: int,
  server_presence_offline_threshold_seconds: int,
};

/** register's `realm` fetch type: every key it adds. */
export const realmStateSchema = z.strictObject({ ...realmSettingsShape, ...realmFactsShape, ...serverShape });
export type RealmState = z.input<typeof realmStateSchema>;

/** A changed string setting is answered as "updated", not its value (the public API's answer). */
const updated = z.literal('updated');

/**
 * PATCH /realm: each setting the request changed, with its new value (api-notes §d); the
 * authentication methods as sent. A setting left as it was is absent.
 */
export const updatedRealmSettingsSchema = z
  .strictObject({
    name: updated,
    description: updated,
    default_language: updated,
    default_code_block_language: updated,
    waiting_period_threshold: int,
    notifications_stream_id: int,
    message_retention_days: int,
    signup_notifications_stream_id: int,
    allow_edit_history: z.boolean(),
    allow_message_editing: z.boolean(),
    avatar_changes_disabled: z.boolean(),
    digest_emails_enabled: z.boolean(),
    disallow_disposable_email_addresses: z.boolean(),
    email_changes_disabled: z.boolean(),
    emails_restricted_to_domains: z.boolean(),
    enable_read_receipts: z.boolean(),
    enable_spectator_access: z.boolean(),
    inline_image_preview: z.boolean(),
    inline_url_embed_preview: z.boolean(),
    invite_required: z.boolean(),
    mandatory_topics: z.boolean(),
    message_content_allowed_in_email_notifications: z.boolean(),
    name_changes_disabled: z.boolean(),
    presence_disabled: z.boolean(),
    send_welcome_emails: z.boolean(),
    want_advertise_in_communities_directory: z.boolean(),
    add_custom_emoji_policy: int,
    bot_creation_policy: int,
    create_private_stream_policy: int,
    create_public_stream_policy: int,
    create_web_public_stream_policy: int,
    delete_own_message_policy: int,
    digest_weekday: int,
    edit_topic_policy: int,
    giphy_rating: int,
    org_type: int,
    invite_to_realm_policy: int,
    invite_to_stream_policy: int,
    move_messages_between_streams_policy: int,
    private_message_policy: int,
    user_group_edit_policy: int,
    video_chat_provider: int,
    wildcard_mention_policy: int,
    message_content_edit_limit_seconds: timeLimit,
    message_content_delete_limit_seconds: timeLimit,
    move_messages_within_stream_limit_seconds: timeLimit,
    move_messages_between_streams_limit_seconds: timeLimit,
    authentication_methods: authenticationMethodsSchema,
  })
  .partial();
export type UpdatedRealmSettings = z.input<typeof updatedRealmSettingsSchema>;
