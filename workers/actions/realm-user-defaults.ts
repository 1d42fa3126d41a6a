import { errors } from '../lib/errors';
import { SETTING_RULES } from './settings-rules';
import { storedRealmJson } from '../queries/realm-settings';
import { USER_SETTINGS_DEFAULTS_KEY, newUserSettings, type UserSettingName } from '../queries/realm-user-defaults';
import { activeUserIds, isAdmin, type UserRow } from '../queries/users';
import type { Realm } from '../realm';

/*
 * PATCH /realm/user_settings_defaults (administrators; openapi
 * update-realm-user-settings-defaults): each value validated as PATCH /settings validates it,
 * stored in the realm's `user_settings_defaults`, announced with `realm_user_settings_defaults`.
 */

/** The settings this endpoint changes: every personal preference but the language (openapi). */
export const EXCLUDED_FROM_DEFAULTS: ReadonlySet<string> = new Set(['default_language']);

export type UserDefaultsRequest = Partial<Record<UserSettingName, boolean | number | string | undefined>>;

/** The same rules as PATCH /settings (actions/settings-rules.ts): one list of allowed values. */
function checkOne(name: UserSettingName, value: boolean | number | string): void {
  const problem = SETTING_RULES[name]?.(value);
  if (problem) throw problem;
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
