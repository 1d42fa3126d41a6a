import { randomBytes } from 'node:crypto';
import { errors } from '../lib/errors';
import { LANGUAGE_NAMES } from '../lib/languages';
import { hashPassword, verifyPassword } from '../lib/secrets';
import { apiEmailFor, EMAIL_VISIBILITY, realmFlag } from '../queries/people';
import { DISPLAY_SETTINGS, NOTIFICATION_SETTINGS } from '../queries/register-settings';
import { userSettings, type UserSettings } from '../queries/user-settings';
import { activeUserIds, isAdmin, userByDeliveryEmail, userByEmail, userById, type UserRow, storedUser } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { publishApiEmailChangeTxn, publishDeliveryEmailChangesTxn } from './people-events';
import { publishAwayTxn } from './user-status';
import { isTimezone, SETTING_RULES } from './settings-rules';
import { checkFullName } from './users';
import { deleteAllDraftsTxn } from './drafts';
import { endSessionsTxn } from './sessions';

// The public API's minimum for a password it does not call too weak.
export const MIN_PASSWORD_LENGTH = 6;
// A pragmatic shape check, as for new accounts (actions/users).
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** How long an email-change confirmation link works: the public API's one day. */
export const EMAIL_CHANGE_LINK_SECONDS = 24 * 60 * 60;

export interface SettingsRequest {
  fullName?: string | undefined;
  email?: string | undefined;
  oldPassword?: string | undefined;
  newPassword?: string | undefined;
  timezone?: string | undefined;
  /** The web session making the change: a new password signs out the user's other sessions only. */
  sessionTokenHash?: string | null;
  /** The personal settings sent, by name (SPEC PATCH /settings). */
  settings: { [K in keyof UserSettings]?: UserSettings[K] | undefined };
}

interface CheckedSettings {
  fullName: string | null;
  newEmail: string | null;
  passwordHash: string | null;
  timezone: string | null;
  changed: Partial<UserSettings>;
}

/** Validates a PATCH /settings request; values equal to the current ones are dropped. */
async function checkUpdateSettings(realm: Realm, user: UserRow, request: SettingsRequest): Promise<CheckedSettings> {
  const current = userSettings(user);
  const changed: Partial<UserSettings> = {};
  for (const [name, value] of Object.entries(request.settings) as [keyof UserSettings, unknown][]) {
    if (value === undefined) continue;
    const problem = SETTING_RULES[name]?.(value);
    if (problem) throw problem;
    if (current[name] !== value) (changed as Record<string, unknown>)[name] = value;
  }
  let timezone: string | null = null;
  if (request.timezone !== undefined) {
    if (!isTimezone(request.timezone)) throw errors.notATimezone();
    if (request.timezone !== user.timezone) timezone = request.timezone;
  }
  let fullName: string | null = null;
  if (request.fullName !== undefined && request.fullName !== user.full_name) {
    // api-notes §e realm `name_changes_disabled`: administrators may still rename themselves.
    if (realmFlag(realm, 'name_changes_disabled') && !isAdmin(user)) {
      throw errors.nameChangesDisabled();
    }
    fullName = checkFullName(request.fullName);
    if (fullName === user.full_name) fullName = null;
  }
  const newEmail = request.email === undefined ? null : checkNewEmail(realm, user, request.email.trim());
  let passwordHash: string | null = null;
  if (request.newPassword !== undefined) {
    if (!(await verifyPassword(request.oldPassword ?? '', user.password_hash))) throw errors.wrongPassword();
    if (request.newPassword.length < MIN_PASSWORD_LENGTH) throw errors.passwordTooWeak();
    passwordHash = await hashPassword(request.newPassword);
  }
  return { fullName, newEmail, passwordHash, timezone, changed };
}

function checkNewEmail(realm: Realm, user: UserRow, email: string): string | null {
  if (email.toLowerCase() === user.delivery_email.toLowerCase()) return null;
  if (realmFlag(realm, 'email_changes_disabled') && !isAdmin(user)) {
    throw errors.emailChangesDisabled();
  }
  if (!EMAIL_PATTERN.test(email)) throw errors.invalidAddress();
  checkEmailFree(realm, email);
  return email;
}

function checkEmailFree(realm: Realm, email: string): void {
  const holder = userByDeliveryEmail(realm, email) ?? userByEmail(realm, email);
  if (holder) throw errors.emailTaken(holder.is_active !== 1);
}

/** PATCH /settings (and its aliases /settings/display, /settings/notifications). */
export async function doUpdateSettings(realm: Realm, user: UserRow, request: SettingsRequest): Promise<void> {
  const checked = await checkUpdateSettings(realm, user, request);
  const token = checked.newEmail === null ? null : randomBytes(24).toString('base64url');
  await realm.transact((tx) => {
    const everyone = activeUserIds(tx.realm);
    if (checked.fullName !== null) {
      tx.realm.stmt('UPDATE users SET full_name = ? WHERE id = ?').run(checked.fullName, user.id);
      tx.publish({ type: 'realm_user', op: 'update', person: { user_id: user.id, full_name: checked.fullName } }, everyone);
    }
    if (checked.passwordHash !== null) {
      tx.realm.stmt('UPDATE users SET password_hash = ? WHERE id = ?').run(checked.passwordHash, user.id);
      endSessionsTxn(tx, user.id, request.sessionTokenHash ?? null);
    }
    if (token !== null && checked.newEmail !== null) {
      const expires = Math.floor(tx.realm.clock.now() / 1000) + EMAIL_CHANGE_LINK_SECONDS;
      tx.realm.stmt('DELETE FROM email_changes WHERE user_id = ?').run(user.id);
      tx.realm
        .stmt('INSERT INTO email_changes (token, user_id, new_email, expires_at) VALUES (?, ?, ?, ?)')
        .run(token, user.id, checked.newEmail, expires);
    }
    if (checked.timezone !== null) {
      tx.realm.stmt('UPDATE users SET timezone = ? WHERE id = ?').run(checked.timezone, user.id);
      publishSettingChangeTxn(tx, user, 'timezone', checked.timezone);
      tx.publish(
        { type: 'realm_user', op: 'update', person: { user_id: user.id, email: user.email, timezone: checked.timezone } },
        everyone,
      );
    }
    for (const [name, value] of Object.entries(checked.changed)) {
      tx.realm
        .stmt("UPDATE users SET settings = json_set(settings, '$.' || ?, json(?)) WHERE id = ?")
        .run(name, JSON.stringify(value), user.id);
      publishSettingChangeTxn(tx, user, name, value);
    }
    if (checked.changed.email_address_visibility !== undefined) applyVisibilityChangeTxn(tx, user, everyone);
    // Turning synchronization off deletes the stored drafts (SPEC PATCH /settings); as in the
    // public API no event follows: clients keep their local drafts.
    if (checked.changed.enable_drafts_synchronization === false) deleteAllDraftsTxn(tx, user.id);
    // `away` is the inverse of presence_enabled (SPEC User status); others learn it as a status.
    if (checked.changed.presence_enabled !== undefined) publishAwayTxn(tx, user.id, !checked.changed.presence_enabled);
  });
  if (token !== null) {
    // No mail is sent (SPEC PATCH /settings email): the link the user must open goes to the log.
    realm.log.info(
      { realm: realm.name, user_id: user.id, confirmation_url: `${realm.url}/api/v1/settings/email_confirm/${token}` },
      'email change confirmation link',
    );
  }
}

/** user_settings update, and its legacy twin for clients without `user_settings_object` (api-notes §d). */
function publishSettingChangeTxn(tx: Txn, user: UserRow, name: string, value: string | number | boolean): void {
  const languageName = name === 'default_language' ? { language_name: LANGUAGE_NAMES[value as string] ?? String(value) } : {};
  tx.publish({ type: 'user_settings', op: 'update', property: name, value, ...languageName }, [user.id]);
  if ((DISPLAY_SETTINGS as readonly string[]).includes(name) || name === 'timezone') {
    tx.publish({ type: 'update_display_settings', user: user.email, setting_name: name, setting: value, ...languageName }, [user.id]);
  } else if ((NOTIFICATION_SETTINGS as readonly string[]).includes(name)) {
    tx.publish({ type: 'update_global_notifications', user: user.email, notification_name: name, setting: value }, [user.id]);
  }
}

/**
 * The visibility changed: the API email follows it between the real address and the
 * `user<id>@` one (SPEC User.email), and viewers who gained or lost the real email learn it.
 */
function applyVisibilityChangeTxn(tx: Txn, before: UserRow, everyone: readonly number[]): void {
  const after = storedUser(tx.realm, before.id);
  const visibility = userSettings(after).email_address_visibility;
  const apiEmail = apiEmailFor(tx.realm, after.id, after.delivery_email, visibility);
  if (apiEmail !== after.email) {
    tx.realm.stmt('UPDATE users SET email = ? WHERE id = ?').run(apiEmail, after.id);
    publishApiEmailChangeTxn(tx, { ...after, email: apiEmail }, everyone);
  }
  publishDeliveryEmailChangesTxn(tx, before, after);
}

/** The confirmation link of an email change: applies the pending address (SPEC PATCH /settings email). */
export async function doConfirmEmailChange(realm: Realm, token: string): Promise<string> {
  return realm.transact((tx) => {
    const pending = tx.realm
      .rows<{ user_id: number; new_email: string; expires_at: number }, [string]>(
        'SELECT user_id, new_email, expires_at FROM email_changes WHERE token = ?',
      )
      .get(token);
    const now = Math.floor(tx.realm.clock.now() / 1000);
    const before = pending ? userById(tx.realm, pending.user_id) : undefined;
    if (!pending || !before || pending.expires_at < now || before.is_active !== 1) {
      throw errors.confirmationLinkInvalid();
    }
    tx.realm.stmt('DELETE FROM email_changes WHERE user_id = ?').run(before.id);
    checkEmailFree(tx.realm, pending.new_email);
    const visibility = userSettings(before).email_address_visibility;
    const apiEmail = apiEmailFor(tx.realm, before.id, pending.new_email, visibility);
    tx.realm.stmt('UPDATE users SET delivery_email = ?, email = ? WHERE id = ?').run(pending.new_email, apiEmail, before.id);
    const after = storedUser(tx.realm, before.id);
    if (visibility === EMAIL_VISIBILITY.EVERYONE) publishApiEmailChangeTxn(tx, after, activeUserIds(tx.realm));
    publishDeliveryEmailChangesTxn(tx, before, after);
    return pending.new_email;
  });
}
