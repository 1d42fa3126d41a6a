import { errors } from '../lib/errors';
import { ROLE } from '../lib/roles';
import type { Realm } from '../realm';
import { isSystemBot } from './accounts';
import { userSettings } from './user-settings';
import { avatarUrl, hasUploadedAvatar, isoDate, userByEmail, userById, type UserRow } from './users';
import { profileDataOf, type ProfileData } from './profile-fields';
import { realmSettings } from './realm-settings';
import { newUserSettings } from './realm-user-defaults';
import type { UserObject } from '../schemas/objects';

/** SPEC PATCH /settings `email_address_visibility`: who may see a user's real email. */
export const EMAIL_VISIBILITY = {
  EVERYONE: 1,
  MEMBERS: 2,
  ADMINS: 3,
  NOBODY: 4,
  MODERATORS: 5,
} as const;

export const EMAIL_VISIBILITY_VALUES: readonly number[] = Object.values(EMAIL_VISIBILITY);

/** The lowest role (highest number) each visibility setting admits; NOBODY admits none. */
const MAX_ROLE_ADMITTED: Record<number, number> = {
  [EMAIL_VISIBILITY.EVERYONE]: ROLE.GUEST,
  [EMAIL_VISIBILITY.MEMBERS]: ROLE.MEMBER,
  [EMAIL_VISIBILITY.MODERATORS]: ROLE.MODERATOR,
  [EMAIL_VISIBILITY.ADMINS]: ROLE.ADMINISTRATOR,
  [EMAIL_VISIBILITY.NOBODY]: 0,
};

export interface Viewer {
  id: number;
  role: number;
}

/**
 * SPEC User.delivery_email: a requester sees a user's real email when the user's own
 * visibility setting admits the requester's role; always their own, always a bot's.
 */
export function canSeeDeliveryEmail(viewer: Viewer | null, target: UserRow): boolean {
  if (target.is_bot === 1) return true;
  if (viewer === null) return false;
  if (viewer.id === target.id) return true;
  const admitted = MAX_ROLE_ADMITTED[userSettings(target).email_address_visibility] ?? 0;
  return viewer.role <= admitted;
}

/** The realm's host name for API addresses: the organization URL's host without its port. */
export function realmEmailDomain(realm: Realm): string {
  return new URL(realm.url).hostname;
}

/**
 * SPEC User.email: the API email. With visibility "everyone" it is the real email; otherwise the
 * address `user<id>@<realm host>`, which reveals nothing and is still usable with the API.
 */
export function apiEmailFor(realm: Realm, userId: number, deliveryEmail: string, visibility: number): string {
  return visibility === EMAIL_VISIBILITY.EVERYONE ? deliveryEmail : `user${userId}@${realmEmailDomain(realm)}`;
}

/** A boolean realm setting such as `name_changes_disabled` (api-notes §e realm), through the one realm-settings module (org). */
export function realmFlag(realm: Realm, name: 'name_changes_disabled' | 'email_changes_disabled'): boolean {
  return realmSettings(realm)[name];
}

/**
 * The visibility a new user starts with: the realm-level defaults for new users' settings
 * (the realm row's `settings` JSON, key `user_settings_defaults`), else "everyone".
 */
export function defaultEmailVisibilityForNewUsers(realm: Realm): number {
  // NewUserSettings is the one reader of the realm's defaults for new users.
  const value = newUserSettings(realm).email_address_visibility;
  return EMAIL_VISIBILITY_VALUES.includes(value) ? value : EMAIL_VISIBILITY.EVERYONE;
}

export interface UserObjectOptions {
  /** `client_extavatar`: the client computes the external picture's URL itself. */
  clientExtavatar: boolean;
  /** GET /users* `include_custom_profile_fields`; register always includes them. */
  includeProfileData?: boolean;
  /** Everyone's profile data read at once, for lists (queries/profile-fields profileDataByUser). */
  profileDataByUser?: ReadonlyMap<number, ProfileData>;
}

/** SPEC User, as `viewer` may see `target` (GET /users*, register's lists, realm_user add). */
export function userObject(realm: Realm, viewer: Viewer | null, target: UserRow, options: UserObjectOptions): UserObject {
  const seesEmail = canSeeDeliveryEmail(viewer, target);
  const person: UserObject = {
    user_id: target.id,
    delivery_email: seesEmail ? target.delivery_email : null,
    email: target.email,
    full_name: target.full_name,
    date_joined: isoDate(target.date_joined),
    is_active: target.is_active === 1,
    is_owner: target.role === ROLE.OWNER,
    is_admin: target.role <= ROLE.ADMINISTRATOR,
    is_guest: target.role === ROLE.GUEST,
    is_billing_admin: target.is_billing_admin === 1,
    is_bot: target.is_bot === 1,
    role: target.role,
    timezone: target.timezone,
    // SPEC User.avatar_url: null only when the client can compute the picture from the email it sees
    avatar_url: options.clientExtavatar && seesEmail && !hasUploadedAvatar(target) ? null : avatarUrl(target),
    avatar_version: target.avatar_version,
  };
  if (target.is_bot === 1) {
    person.bot_type = target.bot_type;
    person.bot_owner_id = target.bot_owner_id;
  } else if (options.includeProfileData !== false) {
    person.profile_data = options.profileDataByUser ? (options.profileDataByUser.get(target.id) ?? {}) : profileDataOf(realm, target.id);
  }
  return person;
}

/** The active users who may, and who may not, see `target`'s real email (realm_user events). */
export function emailAudiences(realm: Realm, target: UserRow): { seeing: Viewer[]; notSeeing: Viewer[] } {
  const seeing: Viewer[] = [];
  const notSeeing: Viewer[] = [];
  for (const viewer of activeViewers(realm)) (canSeeDeliveryEmail(viewer, target) ? seeing : notSeeing).push(viewer);
  return { seeing, notSeeing };
}

export function activeViewers(realm: Realm): Viewer[] {
  return realm.rows<Viewer, []>('SELECT id, role FROM users WHERE is_active = 1').all();
}

/** Every user of the realm but the server's own system bots, by id (GET /users). */
export function realmMembers(realm: Realm): UserRow[] {
  return realm.rows<UserRow, []>('SELECT * FROM users WHERE is_system_bot = 0 ORDER BY id').all();
}

/**
 * The user a GET /users/{user_id} or /users/{email} path names: digits are an id, anything
 * else an API email (SPEC GET /users/{email}); the system bots are not the realm's users.
 */
export function userToShow(realm: Realm, idOrEmail: string): UserRow {
  const user = /^\d+$/.test(idOrEmail) ? userById(realm, Number(idOrEmail)) : userByEmail(realm, idOrEmail);
  if (!user || isSystemBot(realm, user.id)) throw errors.noSuchUser();
  return user;
}
