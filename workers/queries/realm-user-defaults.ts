import type { Realm } from '../realm';
import { storedRealmJson } from './realm-settings';
import { USER_SETTING_DEFAULTS, type UserSettings } from './user-settings';

/*
 * The organization's defaults for new users' personal settings (openapi
 * update-realm-user-settings-defaults), stored in the realm row's `settings` JSON under
 * `user_settings_defaults` as setting name → value; the public API's defaults for the rest.
 */

export const USER_SETTINGS_DEFAULTS_KEY = 'user_settings_defaults';

export type UserSettingName = keyof UserSettings;

export function isUserSettingName(name: string): name is UserSettingName {
  return Object.hasOwn(USER_SETTING_DEFAULTS, name);
}

/** The stored overrides, as an object (missing or malformed: none). */
export function storedUserSettingsDefaults(realm: Realm): Record<string, unknown> {
  const value = storedRealmJson(realm)[USER_SETTINGS_DEFAULTS_KEY];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * The settings a user created now starts with: the realm's stored defaults (of the right type),
 * else the public API's. For the code that creates users.
 */
export function newUserSettings(realm: Realm): UserSettings {
  const stored = storedUserSettingsDefaults(realm);
  const settings: UserSettings = { ...USER_SETTING_DEFAULTS };
  for (const [name, value] of Object.entries(stored)) {
    if (!isUserSettingName(name)) continue;
    if (typeof value === typeof settings[name]) (settings as Record<string, unknown>)[name] = value;
  }
  return settings;
}

/** What a new user's `settings` column starts as: the new-user settings that differ from the public API's defaults. */
export function newUserSettingsJson(realm: Realm): string {
  const settings = newUserSettings(realm);
  const overrides = Object.fromEntries(
    Object.entries(settings).filter(([name, value]) => value !== USER_SETTING_DEFAULTS[name as UserSettingName]),
  );
  return JSON.stringify(overrides);
}
