import { z } from 'zod';
import { doConfirmEmailChange, doUpdateSettings } from '../actions/settings';
import { param } from '../lib/params';
import { openRoute, userRoute } from '../lib/route';
import { EMPTY } from '../schemas/objects';

const bool = param.optionalBool;
const int = param.optionalInt;
const text = () => z.string().optional();

/** SPEC PATCH /settings: every parameter optional; unknown ones come back as ignored. */
const settingsParams = z.object({
  full_name: text(),
  email: text(),
  old_password: text(),
  new_password: text(),
  timezone: text(),
  twenty_four_hour_time: bool(),
  dense_mode: bool(),
  web_mark_read_on_scroll_policy: int(),
  starred_message_counts: bool(),
  fluid_layout_width: bool(),
  high_contrast_mode: bool(),
  color_scheme: int(),
  enable_drafts_synchronization: bool(),
  translate_emoticons: bool(),
  display_emoji_reaction_users: bool(),
  default_language: text(),
  default_view: text(),
  escape_navigates_to_default_view: bool(),
  left_side_userlist: bool(),
  emojiset: text(),
  demote_inactive_streams: int(),
  user_list_style: int(),
  enable_stream_desktop_notifications: bool(),
  enable_stream_email_notifications: bool(),
  enable_stream_push_notifications: bool(),
  enable_stream_audible_notifications: bool(),
  notification_sound: text(),
  enable_desktop_notifications: bool(),
  enable_sounds: bool(),
  email_notifications_batching_period_seconds: int(),
  enable_offline_email_notifications: bool(),
  enable_offline_push_notifications: bool(),
  enable_online_push_notifications: bool(),
  enable_digest_emails: bool(),
  enable_marketing_emails: bool(),
  enable_login_emails: bool(),
  message_content_in_email_notifications: bool(),
  pm_content_in_desktop_notifications: bool(),
  wildcard_mentions_notify: bool(),
  desktop_icon_count_display: int(),
  realm_name_in_email_notifications_policy: int(),
  presence_enabled: bool(),
  enter_sends: bool(),
  send_private_typing_notifications: bool(),
  send_stream_typing_notifications: bool(),
  send_read_receipts: bool(),
  email_address_visibility: int(),
});

/**
 * PATCH /settings, and the deprecated PATCH /settings/display and /settings/notifications
 * that are the same handler since feature level 80. The response is the bare envelope with
 * `ignored_parameters_unsupported` (workers/dispatch.ts).
 */
export const patchSettings = userRoute(settingsParams, EMPTY, async ({ realm, user, session }, values) => {
  const { full_name, email, old_password, new_password, timezone, ...settings } = values;
  await doUpdateSettings(realm, user, {
    fullName: full_name,
    email,
    oldPassword: old_password,
    newPassword: new_password,
    timezone,
    sessionTokenHash: session?.token_hash ?? null,
    settings,
  });
  return {};
});

/** The link an email change sends (logged, no mail): opened without credentials, keyed by its token. */
export const getEmailConfirm = openRoute(
  z.object({ token: z.string() }),
  z.strictObject({ email: z.string() }),
  async ({ realm }, { token }) => ({
    email: await doConfirmEmailChange(realm, token),
  }),
);
