import type { UserRow } from './users';

/**
 * A user's personal settings (SPEC PATCH /settings): what the `settings` JSON of their row
 * holds, the public API's defaults for the rest. Settings that register and PATCH /settings
 * need are added to USER_SETTING_DEFAULTS as those arrive.
 */
export const USER_SETTING_DEFAULTS = {
  // typing (SPEC POST /typing): refused when the sender turned these off
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  // register: the rest of the public API's defaults (api-notes §e user_settings, SPEC PATCH /settings)
  twenty_four_hour_time: false,
  dense_mode: true,
  web_mark_read_on_scroll_policy: 1,
  starred_message_counts: true,
  fluid_layout_width: false,
  high_contrast_mode: false,
  color_scheme: 1,
  enable_drafts_synchronization: true,
  translate_emoticons: false,
  display_emoji_reaction_users: true,
  default_language: 'en',
  default_view: 'recent_topics',
  escape_navigates_to_default_view: true,
  left_side_userlist: false,
  emojiset: 'vendora',
  demote_inactive_streams: 1,
  user_list_style: 2,
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  // the public API's default sound carries the vendor's name; the first neutral one instead
  notification_sound: 'chime',
  enable_desktop_notifications: true,
  enable_sounds: true,
  email_notifications_batching_period_seconds: 120,
  enable_offline_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_digest_emails: true,
  enable_marketing_emails: true,
  enable_login_emails: true,
  message_content_in_email_notifications: true,
  pm_content_in_desktop_notifications: true,
  wildcard_mentions_notify: true,
  desktop_icon_count_display: 1,
  realm_name_in_email_notifications_policy: 1,
  presence_enabled: true,
  enter_sends: false,
  send_read_receipts: true,
  email_address_visibility: 1,
};

export type UserSettings = { -readonly [K in keyof typeof USER_SETTING_DEFAULTS]: (typeof USER_SETTING_DEFAULTS)[K] };

export function userSettings(user: Pick<UserRow, 'settings'>): UserSettings {
  const settings: UserSettings = { ...USER_SETTING_DEFAULTS };
  let stored: unknown;
  try {
    stored = JSON.parse(user.settings);
  } catch {
    stored = {};
  }
  if (stored && typeof stored === 'object') {
    for (const [key, value] of Object.entries(stored)) {
      if (!(key in settings)) continue;
      const name = key as keyof UserSettings;
      // A stored value of another type than the default's is ignored, not trusted.
      if (typeof value === typeof settings[name]) (settings as Record<string, unknown>)[name] = value;
    }
  }
  return settings;
}
