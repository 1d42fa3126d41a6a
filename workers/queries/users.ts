import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { UPLOADED_AVATAR_PREFIX } from '../lib/avatar-url';
import { ROLE } from '../lib/roles';
import { storedRow } from '../lib/stored-row';
import type { Realm } from '../realm';
import { versionedCache } from './cache-version';
import { profileDataOf } from './profile-fields';
import type { ownUserSchema } from '../schemas/objects';
import type { z } from 'zod';
import { USER_MESSAGE_TABLES } from './user-message-rows';

export interface UserRow {
  id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  api_key: string;
  password_hash: string | null;
  role: number;
  is_active: number;
  is_bot: number;
  bot_type: number | null;
  bot_owner_id: number | null;
  is_billing_admin: number;
  timezone: string;
  date_joined: number;
  avatar_version: number;
  // 'U' uploaded (stored in the realm file), 'G' the external provider's picture
  avatar_source: string;
  /** Personal settings that differ from the defaults, as a JSON object (SPEC PATCH /settings). */
  settings: string;
}

const USER_COLUMNS = `id, email, delivery_email, full_name, api_key, password_hash, role, is_active, is_bot,
  bot_type, bot_owner_id, is_billing_admin, timezone, date_joined, avatar_version, settings, avatar_source`;

/** A boolean personal setting, or its default when the user never changed it. */
export function booleanSetting(user: UserRow, name: string, fallback: boolean): boolean {
  const value = (JSON.parse(user.settings) as Record<string, unknown>)[name];
  return typeof value === 'boolean' ? value : fallback;
}

export function userByEmail(realm: Realm, email: string): UserRow | undefined {
  return realm.rows<UserRow, [string]>(`SELECT ${USER_COLUMNS} FROM users WHERE email = ? COLLATE NOCASE`).get(email);
}

export function userByDeliveryEmail(realm: Realm, email: string): UserRow | undefined {
  return realm.rows<UserRow, [string]>(`SELECT ${USER_COLUMNS} FROM users WHERE delivery_email = ? COLLATE NOCASE`).get(email);
}

export function userById(realm: Realm, id: number): UserRow | undefined {
  return realm.rows<UserRow, [number]>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`).get(id);
}

/** A user the caller knows exists (read again inside its own transaction, after a write). */
export function storedUser(realm: Realm, id: number): UserRow {
  return storedRow(userById(realm, id), `user ${id}`);
}

/**
 * Users by ID, each as read since cache_version last moved (any write to users moves it), kept
 * as they are asked for: a page of messages names its senders, and reading each one's row again
 * was about 13 µs a sender a page (CPU profile of GET /messages on a realm with history).
 */
const usersReadById = versionedCache(() => new Map<number, UserRow>());

/** `storedUser`, without reading the row again while cache_version stands. */
export function knownUser(realm: Realm, id: number): UserRow {
  const known = usersReadById(realm);
  let user = known.get(id);
  if (user === undefined) known.set(id, (user = storedUser(realm, id)));
  return user;
}

/** Everyone an organization-wide event goes to. */
export function activeUserIds(realm: Realm): number[] {
  return realm
    .rows<{ id: number }, []>('SELECT id FROM users WHERE is_active = 1')
    .all()
    .map((r) => r.id);
}

/** The realm's own active users (the system bots are not its people), while cache_version stands. */
const activeRealmUserIds = versionedCache((realm: Realm): readonly number[] =>
  realm
    .rows<{ id: number }, []>('SELECT id FROM users WHERE is_active = 1 AND is_system_bot = 0')
    .all()
    .map((r) => r.id),
);

/**
 * At most `limit` of the realm's own active users: enough to tell a realm is larger than
 * `limit`. Every presence ping that changes what others see asks; reading the users table each
 * time was 195 ms of self time in a CPU profile of `mixed` at 5,000 people.
 */
export function activeUserIdsUpTo(realm: Realm, limit: number): number[] {
  return activeRealmUserIds(realm).slice(0, limit);
}

export function isAdmin(user: UserRow): boolean {
  return user.role <= ROLE.ADMINISTRATOR;
}

/**
 * Users who uploaded no avatar are shown the external provider's picture for their email;
 * `client_extavatar` clients compute that URL themselves (SPEC User.avatar_url).
 */
export function avatarUrl(user: UserRow): string {
  // An uploaded avatar is served from the realm file (GET /user_avatars/...).
  if (hasUploadedAvatar(user)) return uploadedAvatarPath(user.id, false, user.avatar_version);
  return externalAvatarUrl(user.delivery_email, user.avatar_version);
}

// Avatars (api-notes §a tail GET /avatar, §d realm_user avatar update)
/** Whether the user uploaded an avatar (SPEC User.avatar_url: null only without one). */
export function hasUploadedAvatar(user: UserRow): boolean {
  return user.avatar_source === 'U';
}

/**
 * Address hashes, kept: every message object names its sender's avatar, and hashing the
 * address each time was 4.7 µs of a sent message's shard time (CPU profile of send-stream).
 * Bounded, since GET /avatar hashes whatever address it is asked for.
 */
const addressDigests = new LRUCache<string, string>({ max: 20_000 });

/** The external provider's picture for an email address, from the address's hash. */
export function externalAvatarUrl(email: string, version: number): string {
  let digest = addressDigests.get(email);
  if (digest === undefined) {
    digest = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
    addressDigests.set(email, digest);
  }
  return `https://secure.gravatar.com/avatar/${digest}?d=identicon&version=${version}`;
}

/** Where an uploaded avatar is served; every realm file holds one realm, whose row id is 1. */
export function uploadedAvatarPath(userId: number, medium: boolean, version: number): string {
  return `${UPLOADED_AVATAR_PREFIX}1/${userId}${medium ? '-medium' : ''}.png?version=${version}`;
}

/** The avatar URL of the medium size (register, realm_user events). */
export function avatarUrlMedium(user: UserRow): string {
  if (hasUploadedAvatar(user)) return uploadedAvatarPath(user.id, true, user.avatar_version);
  return externalAvatarUrl(user.delivery_email, user.avatar_version);
}

export function isoDate(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

export function maxMessageId(realm: Realm, userId: number): number {
  return (
    realm.oneRow<{ id: number | null }, [number, number]>(
      // Each table's own max, a seek to the end of the user's range (an aggregate of the two as
      // one would read every row).
      `SELECT max(${USER_MESSAGE_TABLES.map((table) => `coalesce((SELECT max(message_id) FROM ${table} WHERE user_id = ?), -1)`).join(', ')}) AS id`,
      userId,
      userId,
    ).id ?? -1
  );
}

/** GET /users/me (SPEC §Resources, Own user). */
export function ownUser(realm: Realm, user: UserRow): z.input<typeof ownUserSchema> {
  const own: z.input<typeof ownUserSchema> = {
    avatar_url: avatarUrl(user),
    avatar_version: user.avatar_version,
    email: user.email,
    full_name: user.full_name,
    is_admin: user.role <= ROLE.ADMINISTRATOR,
    is_owner: user.role === ROLE.OWNER,
    is_billing_admin: user.is_billing_admin === 1,
    is_guest: user.role === ROLE.GUEST,
    is_bot: user.is_bot === 1,
    is_active: user.is_active === 1,
    role: user.role,
    timezone: user.timezone,
    date_joined: isoDate(user.date_joined),
    max_message_id: maxMessageId(realm, user.id),
    user_id: user.id,
    delivery_email: user.delivery_email,
  };
  if (!user.is_bot) own.profile_data = profileDataOf(realm, user.id);
  return own;
}
