import { errors } from '../lib/errors';
import { epochSeconds } from '../lib/clock';
import { ROLE, systemGroupNameForRole } from '../lib/roles';
import { generateApiKey, hashPassword, verifyPassword } from '../lib/secrets';
import { apiEmailFor, defaultEmailVisibilityForNewUsers, EMAIL_VISIBILITY } from '../queries/people';
import { activeUserIds, isAdmin, userByDeliveryEmail, userByEmail, type UserRow, storedUser } from '../queries/users';
import type { Realm } from '../realm';
import { publishPersonAddedTxn } from './people-events';
import { subscribeUsersTxn } from './subscriptions';
import { syncFullMembersTxn } from './full-members';
import { newUserSettingsJson } from '../queries/realm-user-defaults';
import { authenticationMethods } from '../queries/realm-settings';

export const MAX_FULL_NAME_LENGTH = 100;
// A pragmatic shape check; deliverability is the inviter's business.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

/**
 * POST /fetch_api_key and POST /login: a wrong password and an unknown user look the same to
 * the caller, and both count toward the username's failed-login limit.
 */
export async function checkFetchApiKey(realm: Realm, email: string, password: string): Promise<UserRow> {
  if (realm.info.deactivated) throw errors.realmDeactivated();
  // Password login is the Email method; this server has no LDAP to try instead.
  if (authenticationMethods(realm)['Email'] !== true) throw errors.passwordAuthDisabled();
  const waitMs = realm.loginFailures.retryAfterMs(email);
  if (waitMs > 0) throw errors.rateLimitHit(waitMs);
  const user = userByDeliveryEmail(realm, email) ?? userByEmail(realm, email);
  const ok = await verifyPassword(password, user?.password_hash ?? null);
  if (!user || !ok) {
    realm.loginFailures.recordFailure(email);
    throw errors.authenticationFailed();
  }
  realm.loginFailures.recordSuccess(email);
  if (!user.is_active) throw errors.userDeactivated();
  return user;
}

export function checkFullName(fullName: string): string {
  const name = fullName.trim();
  if (name === '') throw errors.badRequest('Name too short!');
  if (name.length > MAX_FULL_NAME_LENGTH) throw errors.badRequest('Name too long!');
  // Control characters would break mention syntax and display.
  if (/\p{Cc}/u.test(name)) throw errors.badRequest('Invalid characters in name!');
  return name;
}

export interface NewUser {
  email: string;
  password: string;
  fullName: string;
}

/** An email is taken when it is any account's real email or API email. */
function checkEmailFree(realm: Realm, email: string): void {
  if (userByDeliveryEmail(realm, email) || userByEmail(realm, email)) throw errors.badRequest(`Email '${email}' already in use`);
}

/** POST /users: an administrator creates a member account with a password. */
export async function doCreateUser(realm: Realm, actor: UserRow, spec: NewUser): Promise<number> {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
  const email = spec.email.trim();
  if (!EMAIL_PATTERN.test(email)) throw errors.badRequest(`Invalid email '${email}'`);
  const fullName = checkFullName(spec.fullName);
  checkEmailFree(realm, email);
  const passwordHash = await hashPassword(spec.password);
  return realm.transact((tx) => {
    // Again: another request may have taken the email while the password was hashing.
    checkEmailFree(realm, email);
    const now = epochSeconds(tx.realm.clock);
    const userId = Number(
      tx.realm
        .stmt(
          `INSERT INTO users (email, delivery_email, full_name, api_key, password_hash, role, date_joined, settings)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        // The organization's defaults for new users' settings (PATCH /realm/user_settings_defaults).
        .run(email, email, fullName, generateApiKey(), passwordHash, ROLE.MEMBER, now, newUserSettingsJson(tx.realm)).lastInsertRowid,
    );
    const group = systemGroupNameForRole(ROLE.MEMBER) as string;
    const roleGroup = tx.realm.oneRow<{ id: number }, [string]>(
      'SELECT id FROM user_groups WHERE name = ? COLLATE NOCASE AND is_system_group = 1',
      group,
    );
    tx.realm.stmt('INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)').run(roleGroup.id, userId);
    // api-notes §d realm_user add: the whole person, to everyone (the new user included),
    // before the events that name them: their role group's add_members, the peer_adds.
    // The realm's default visibility for new users decides the API email (SPEC User.email).
    const visibility = defaultEmailVisibilityForNewUsers(tx.realm);
    if (visibility !== EMAIL_VISIBILITY.EVERYONE) {
      tx.realm
        .stmt("UPDATE users SET email = ?, settings = json_set(settings, '$.email_address_visibility', ?) WHERE id = ?")
        .run(apiEmailFor(tx.realm, userId, email, visibility), visibility, userId);
    }
    const created = storedUser(tx.realm, userId);
    const everyone = activeUserIds(realm);
    publishPersonAddedTxn(tx, created);
    tx.publish({ type: 'user_group', op: 'add_members', group_id: roleGroup.id, user_ids: [userId] }, everyone);
    // A member joins `@role:fullmembers` at once when the waiting period is 0.
    syncFullMembersTxn(tx);
    const defaultStreams = tx.realm.rows<{ id: number }, []>('SELECT id FROM streams WHERE is_default = 1 AND deactivated = 0').all();
    subscribeUsersTxn(
      tx,
      [userId],
      defaultStreams.map((s) => s.id),
    );
    return userId;
  });
}
