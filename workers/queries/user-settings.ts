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
