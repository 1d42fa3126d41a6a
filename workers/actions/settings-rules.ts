import { errors, type ApiError } from '../lib/errors';
import { LANGUAGE_NAMES } from '../lib/languages';
import { EMAIL_VISIBILITY_VALUES } from '../queries/people';
import { AVAILABLE_NOTIFICATION_SOUNDS, EMOJISET_CHOICES } from '../queries/register-settings';
import type { UserSettings } from '../queries/user-settings';

/** The allowed values of PATCH /settings parameters beyond their wire type (SPEC PATCH /settings). */

const ONE_TO_THREE = [1, 2, 3];
// The public API's bound on batching email notifications: up to a week.
export const MAX_EMAIL_BATCHING_PERIOD_SECONDS = 7 * 24 * 60 * 60;

type Rule = (value: unknown) => ApiError | null;

const oneOf =
  (name: string, allowed: readonly unknown[]): Rule =>
  (value) =>
    allowed.includes(value) ? null : errors.invalidSetting(name);

export const SETTING_RULES: Partial<Record<keyof UserSettings, Rule>> = {
  web_mark_read_on_scroll_policy: oneOf('web_mark_read_on_scroll_policy', ONE_TO_THREE),
  color_scheme: oneOf('color_scheme', ONE_TO_THREE),
  demote_inactive_streams: oneOf('demote_inactive_streams', ONE_TO_THREE),
  user_list_style: oneOf('user_list_style', ONE_TO_THREE),
  desktop_icon_count_display: oneOf('desktop_icon_count_display', ONE_TO_THREE),
  realm_name_in_email_notifications_policy: oneOf('realm_name_in_email_notifications_policy', ONE_TO_THREE),
  email_address_visibility: oneOf('email_address_visibility', EMAIL_VISIBILITY_VALUES),
  default_language: oneOf('default_language', Object.keys(LANGUAGE_NAMES)),
  default_view: oneOf('default_view', ['recent_topics', 'all_messages']),
  emojiset: oneOf(
    'emojiset',
    EMOJISET_CHOICES.map((choice) => choice.key),
  ),
  notification_sound: (value) =>
    AVAILABLE_NOTIFICATION_SOUNDS.includes(value as string) ? null : errors.invalidNotificationSound(String(value)),
  email_notifications_batching_period_seconds: (value) =>
    typeof value === 'number' && value > 0 && value <= MAX_EMAIL_BATCHING_PERIOD_SECONDS
      ? null
      : errors.invalidEmailBatchingPeriod(String(value)),
};

/** SPEC PATCH /settings `timezone`: an IANA time zone name, as the runtime's time zone data knows them. */
export function isTimezone(name: string): boolean {
  if (name === '' || name.length > 40) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
