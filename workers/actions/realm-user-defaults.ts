import { errors } from '../lib/errors';
import { AVAILABLE_NOTIFICATION_SOUNDS, EMOJISET_CHOICES } from '../queries/register-settings';
import { storedRealmJson } from '../queries/realm-settings';
import { USER_SETTINGS_DEFAULTS_KEY, newUserSettings, type UserSettingName } from '../queries/realm-user-defaults';
import { activeUserIds, isAdmin, type UserRow } from '../queries/users';
import type { Realm } from '../realm';

/*
 * org: PATCH /realm/user_settings_defaults (administrators; openapi
 * update-realm-user-settings-defaults): each value validated as PATCH /settings validates it,
 * stored in the realm's `user_settings_defaults`, announced with `realm_user_settings_defaults`.
 */

const ONE_TO_THREE = [1, 2, 3];
const CHOICES: Partial<Record<UserSettingName, readonly number[]>> = {
  web_mark_read_on_scroll_policy: ONE_TO_THREE,
  color_scheme: ONE_TO_THREE,
  demote_inactive_streams: ONE_TO_THREE,
  user_list_style: ONE_TO_THREE,
  desktop_icon_count_display: ONE_TO_THREE,
  realm_name_in_email_notifications_policy: ONE_TO_THREE,
  email_address_visibility: [1, 2, 3, 4, 5],
};
const DEFAULT_VIEWS = ['recent_topics', 'all_messages'];
// The public API's bounds on email batching: two minutes to a week.
const MIN_BATCHING_S = 120;
const MAX_BATCHING_S = 7 * 24 * 60 * 60;

/** The settings this endpoint changes: every personal preference but the language (openapi). */
export const EXCLUDED_FROM_DEFAULTS: ReadonlySet<string> = new Set(['default_language']);

export type UserDefaultsRequest = Partial<Record<UserSettingName, boolean | number | string | undefined>>;

function checkOne(name: UserSettingName, value: boolean | number | string): void {
  const choices = CHOICES[name];
  if (choices && !choices.includes(value as number)) throw errors.invalidSettingValue(name);
  if (name === 'default_view' && !DEFAULT_VIEWS.includes(String(value))) throw errors.invalidSettingValue(name);
  if (name === 'emojiset' && !EMOJISET_CHOICES.some((choice) => choice.key === value)) throw errors.invalidSettingValue(name);
  if (name === 'notification_sound' && !AVAILABLE_NOTIFICATION_SOUNDS.includes(String(value))) {
    throw errors.badRequest(`Invalid notification sound '${String(value)}'`);
  }
  if (name === 'email_notifications_batching_period_seconds' && (Number(value) < MIN_BATCHING_S || Number(value) > MAX_BATCHING_S)) {
    throw errors.badRequest(`Invalid email batching period: ${String(value)} seconds`);
  }
}

export function doUpdateRealmUserSettingsDefaults(realm: Realm, actor: UserRow, request: UserDefaultsRequest): Promise<void> {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
  const wanted = Object.entries(request).filter((entry): entry is [UserSettingName, boolean | number | string] => entry[1] !== undefined);
  for (const [name, value] of wanted) checkOne(name, value);
  return realm.transact((tx) => {
    const current = newUserSettings(tx.realm);
    const stored = storedRealmJson(tx.realm);
    const defaults = { ...(stored[USER_SETTINGS_DEFAULTS_KEY] as Record<string, unknown> | undefined) };
    let changed = false;
    for (const [name, value] of wanted) {
      if (current[name] === value) continue;
      defaults[name] = value;
      changed = true;
      tx.publish({ type: 'realm_user_settings_defaults', op: 'update', property: name, value }, activeUserIds(tx.realm));
    }
    if (!changed) return;
    stored[USER_SETTINGS_DEFAULTS_KEY] = defaults;
    tx.realm.stmt('UPDATE realm SET settings = ? WHERE id = 1').run(JSON.stringify(stored));
  });
}
