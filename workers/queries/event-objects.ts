import { isAdminRole, ROLE } from '../lib/roles';
import type { Realm } from '../realm';
import { canSeeStream, streamObject, subscriberIds, type StreamRow } from './streams';
import { personalProperties, subscriptionSettings } from './subscription-properties';
import { avatarUrl, isoDate, type UserRow } from './users';

/*
 * The objects that events carry and the users who may see them (api-notes §d), beside the
 * queries that answer the same questions for GET requests.
 */

/**
 * api-notes §d subscription add: every stream field plus the subscriber's personal properties
 * and the subscriber list. Null notification settings stay null here; a queue without the
 * `notification_settings_null` capability gets them resolved (events/shape.ts) from the
 * internal `inherited_settings`.
 */
export function subscriptionObject(realm: Realm, userId: number, stream: StreamRow): Record<string, unknown> {
  const settings = subscriptionSettings(realm, userId, stream.id);
  if (!settings) throw new Error(`no subscription of user ${userId} to stream ${stream.id}`);
  return { ...streamObject(stream), ...personalProperties(settings, null), subscribers: subscriberIds(realm, stream.id) };
}

function activeUsersWithRoles(realm: Realm): { id: number; role: number }[] {
  return realm.stmt('SELECT id, role FROM users WHERE is_active = 1').all() as { id: number; role: number }[];
}

/** Who may see that a stream exists and who is on it (api-notes §d stream create, peer_add). */
export function streamAudience(realm: Realm, stream: StreamRow): number[] {
  const subscribers = new Set(subscriberIds(realm, stream.id));
  return activeUsersWithRoles(realm)
    .filter((user) => canSeeStream(user.role, subscribers.has(user.id), stream))
    .map((user) => user.id);
}

/** api-notes §d realm_user add: the person as GET /users shows them. */
export function personObject(user: UserRow): Record<string, unknown> {
  const person: Record<string, unknown> = {
    user_id: user.id,
    email: user.email,
    avatar_url: avatarUrl(user),
    avatar_version: user.avatar_version,
    full_name: user.full_name,
    is_admin: isAdminRole(user.role),
    is_billing_admin: user.is_billing_admin === 1,
    is_owner: user.role === ROLE.OWNER,
    is_bot: user.is_bot === 1,
    is_guest: user.role === ROLE.GUEST,
    role: user.role,
    is_active: user.is_active === 1,
    timezone: user.timezone,
    date_joined: isoDate(user.date_joined),
    delivery_email: user.delivery_email,
  };
  if (user.is_bot === 1) {
    person['bot_type'] = user.bot_type;
    person['bot_owner_id'] = user.bot_owner_id;
  } else {
    // SPEC User.profile_data: only when is_bot is false.
    person['profile_data'] = {};
  }
  return person;
}
