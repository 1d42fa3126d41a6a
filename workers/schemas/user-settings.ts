import { z } from 'zod';

/*
 * A user's personal settings on the wire (SPEC PATCH /settings; api-notes §e `user_settings`):
 * register's `user_settings`, its legacy top-level keys, and `realm_user_settings_defaults`.
 */

const int = z.number().int();

/** Every personal setting with its type; queries/user-settings.ts holds their defaults. */
export const userSettingsSchema = z.strictObject({
  send_private_typing_notifications: z.boolean(),
  send_stream_typing_notifications: z.boolean(),
  twenty_four_hour_time: z.boolean(),
  dense_mode: z.boolean(),
  web_mark_read_on_scroll_policy: int,
  starred_message_counts: z.boolean(),
  fluid_layout_width: z.boolean(),
  high_contrast_mode: z.boolean(),
  color_scheme: int,
  enable_drafts_synchronization: z.boolean(),
  translate_emoticons: z.boolean(),
  display_emoji_reaction_users: z.boolean(),
  default_language: z.string(),
  default_view: z.string(),
  escape_navigates_to_default_view: z.boolean(),
  left_side_userlist: z.boolean(),
  emojiset: z.string(),
  demote_inactive_streams: int,
  user_list_style: int,
  enable_stream_desktop_notifications: z.boolean(),
  enable_stream_email_notifications: z.boolean(),
  enable_stream_push_notifications: z.boolean(),
  enable_stream_audible_notifications: z.boolean(),
  notification_sound: z.string(),
  enable_desktop_notifications: z.boolean(),
  enable_sounds: z.boolean(),
  email_notifications_batching_period_seconds: int,
  enable_offline_email_notifications: z.boolean(),
  enable_offline_push_notifications: z.boolean(),
  enable_online_push_notifications: z.boolean(),
  enable_digest_emails: z.boolean(),
  enable_marketing_emails: z.boolean(),
  enable_login_emails: z.boolean(),
  message_content_in_email_notifications: z.boolean(),
  pm_content_in_desktop_notifications: z.boolean(),
  wildcard_mentions_notify: z.boolean(),
  desktop_icon_count_display: int,
  realm_name_in_email_notifications_policy: int,
  presence_enabled: z.boolean(),
  enter_sends: z.boolean(),
  send_read_receipts: z.boolean(),
  email_address_visibility: int,
});
export type UserSettingsObject = z.input<typeof userSettingsSchema>;

/** The choices a settings page offers beside the values. */
const choices = {
  emojiset_choices: z.array(z.strictObject({ key: z.string(), text: z.string() })),
  available_notification_sounds: z.array(z.string()),
};

/** register's `user_settings`: the settings, the choices, and the user's time zone. */
export const userSettingsStateSchema = userSettingsSchema.extend({ ...choices, timezone: z.string() });

/** `realm_user_settings_defaults`: what a new user starts with, and the choices. */
export const realmUserSettingsDefaultsSchema = userSettingsSchema.extend(choices);

const shape = userSettingsSchema.shape;

/*
 * The legacy `update_display_settings` and `update_global_notifications` fetch types, for
 * clients without the `user_settings_object` capability: these settings at top level.
 */
export const displaySettingsState = {
  color_scheme: shape.color_scheme,
  default_language: shape.default_language,
  default_view: shape.default_view,
  demote_inactive_streams: shape.demote_inactive_streams,
  dense_mode: shape.dense_mode,
  emojiset: shape.emojiset,
  enable_drafts_synchronization: shape.enable_drafts_synchronization,
  enter_sends: shape.enter_sends,
  fluid_layout_width: shape.fluid_layout_width,
  high_contrast_mode: shape.high_contrast_mode,
  left_side_userlist: shape.left_side_userlist,
  starred_message_counts: shape.starred_message_counts,
  translate_emoticons: shape.translate_emoticons,
  twenty_four_hour_time: shape.twenty_four_hour_time,
  emojiset_choices: choices.emojiset_choices,
  timezone: z.string(),
};
export const notificationSettingsState = {
  desktop_icon_count_display: shape.desktop_icon_count_display,
  email_notifications_batching_period_seconds: shape.email_notifications_batching_period_seconds,
  enable_desktop_notifications: shape.enable_desktop_notifications,
  enable_digest_emails: shape.enable_digest_emails,
  enable_login_emails: shape.enable_login_emails,
  enable_marketing_emails: shape.enable_marketing_emails,
  enable_offline_email_notifications: shape.enable_offline_email_notifications,
  enable_offline_push_notifications: shape.enable_offline_push_notifications,
  enable_online_push_notifications: shape.enable_online_push_notifications,
  enable_sounds: shape.enable_sounds,
  enable_stream_audible_notifications: shape.enable_stream_audible_notifications,
  enable_stream_desktop_notifications: shape.enable_stream_desktop_notifications,
  enable_stream_email_notifications: shape.enable_stream_email_notifications,
  enable_stream_push_notifications: shape.enable_stream_push_notifications,
  message_content_in_email_notifications: shape.message_content_in_email_notifications,
  notification_sound: shape.notification_sound,
  pm_content_in_desktop_notifications: shape.pm_content_in_desktop_notifications,
  presence_enabled: shape.presence_enabled,
  realm_name_in_email_notifications_policy: shape.realm_name_in_email_notifications_policy,
  wildcard_mentions_notify: shape.wildcard_mentions_notify,
  available_notification_sounds: choices.available_notification_sounds,
};
