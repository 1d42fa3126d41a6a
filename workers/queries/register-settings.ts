import type { UserRow } from './users';
import { userSettings, type UserSettings } from './user-settings';
import type { Wants } from './register-realm';
import type { Realm } from '../realm';
import { newUserSettings } from './realm-user-defaults';
import type { RegisterState } from '../schemas/register';

// api-notes §e: the settings the legacy `update_display_settings` type returns at top level.
export const DISPLAY_SETTINGS = [
  'color_scheme',
  'default_language',
  'default_view',
  'demote_inactive_streams',
  'dense_mode',
  'emojiset',
  'enable_drafts_synchronization',
  'enter_sends',
  'fluid_layout_width',
  'high_contrast_mode',
  'left_side_userlist',
  'starred_message_counts',
  'translate_emoticons',
  'twenty_four_hour_time',
] as const;

// api-notes §e: the settings the legacy `update_global_notifications` type returns at top level.
export const NOTIFICATION_SETTINGS = [
  'desktop_icon_count_display',
  'email_notifications_batching_period_seconds',
  'enable_desktop_notifications',
  'enable_digest_emails',
  'enable_login_emails',
  'enable_marketing_emails',
  'enable_offline_email_notifications',
  'enable_offline_push_notifications',
  'enable_online_push_notifications',
  'enable_sounds',
  'enable_stream_audible_notifications',
  'enable_stream_desktop_notifications',
  'enable_stream_email_notifications',
  'enable_stream_push_notifications',
  'message_content_in_email_notifications',
  'notification_sound',
  'pm_content_in_desktop_notifications',
  'presence_enabled',
  'realm_name_in_email_notifications_policy',
  'wildcard_mentions_notify',
] as const;

/** SPEC PATCH /settings emojiset values with their display text. */
export const EMOJISET_CHOICES = [
  { key: 'vendora', text: 'Modern' },
  { key: 'vendora-blob', text: 'Classic' },
  { key: 'vendorb', text: 'Alternative' },
  { key: 'text', text: 'Plain text' },
];

export const AVAILABLE_NOTIFICATION_SOUNDS = ['chime', 'ding', 'knock', 'none'];

/**
 * `user_settings` (api-notes §e) and, for clients without `user_settings_object`, the legacy
 * top-level display and notification settings (SPEC capability meanings).
 */
export function userSettingsState(user: UserRow, wants: Wants, settingsObject: boolean): RegisterState {
  const settings = userSettings(user);
  const state: RegisterState = {};
  if (wants('user_settings')) {
    state['user_settings'] = {
      ...settings,
      emojiset_choices: EMOJISET_CHOICES,
      timezone: user.timezone,
      available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS,
    };
  }
  if (settingsObject) return state;
  if (wants('update_display_settings')) {
    Object.assign(state, pick(settings, DISPLAY_SETTINGS) satisfies RegisterState);
    state['emojiset_choices'] = EMOJISET_CHOICES;
    state['timezone'] = user.timezone;
  }
  if (wants('update_global_notifications')) {
    Object.assign(state, pick(settings, NOTIFICATION_SETTINGS) satisfies RegisterState);
    state['available_notification_sounds'] = AVAILABLE_NOTIFICATION_SOUNDS;
  }
  return state;
}

/** The named settings of `settings`, for the legacy top-level keys. */
function pick<K extends keyof UserSettings>(settings: UserSettings, names: readonly K[]): Pick<UserSettings, K> {
  const picked: Partial<UserSettings> = {};
  for (const name of names) picked[name] = settings[name];
  return picked as Pick<UserSettings, K>;
}

/** `realm_user_settings_defaults`: what a new user starts with, the organization's overrides included (org). */
export function realmUserSettingsDefaults(realm: Realm): NonNullable<RegisterState['realm_user_settings_defaults']> {
  return { ...newUserSettings(realm), emojiset_choices: EMOJISET_CHOICES, available_notification_sounds: AVAILABLE_NOTIFICATION_SOUNDS };
}
