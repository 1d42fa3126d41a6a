import { isAdminRole, ROLE } from '../lib/roles';
import type { Realm } from '../realm';
import { streamObject, subscriberIds, type StreamRow } from './streams';
import { avatarUrl, isoDate, type UserRow } from './users';

/*
 * The objects that events carry and the users who may see them (api-notes §d), beside the
 * queries that answer the same questions for GET requests.
 */

interface SubscriptionSettingsRow {
  color: string;
  is_muted: number;
  pin_to_top: number;
  desktop_notifications: number | null;
  audible_notifications: number | null;
  push_notifications: number | null;
  email_notifications: number | null;
  wildcard_mentions_notify: number | null;
}

function nullableBoolean(value: number | null): boolean | null {
  return value === null ? null : value === 1;
}

/**
 * api-notes §d subscription add: every stream field plus the subscriber's personal properties
 * (null: the user's global setting applies) and the subscriber list.
 */
export function subscriptionObject(realm: Realm, userId: number, stream: StreamRow): Record<string, unknown> {
  const row = realm
    .stmt(
      `SELECT color, is_muted, pin_to_top, desktop_notifications, audible_notifications, push_notifications,
         email_notifications, wildcard_mentions_notify
       FROM subscriptions WHERE user_id = ? AND stream_id = ?`,
    )
    .get(userId, stream.id) as SubscriptionSettingsRow;
  return {
    ...streamObject(stream),
    audible_notifications: nullableBoolean(row.audible_notifications),
    color: row.color,
    desktop_notifications: nullableBoolean(row.desktop_notifications),
    // No incoming-email gateway exists (SPEC): no address to show.
    email_address: '',
    email_notifications: nullableBoolean(row.email_notifications),
    in_home_view: row.is_muted === 0,
    is_muted: row.is_muted === 1,
    pin_to_top: row.pin_to_top === 1,
    push_notifications: nullableBoolean(row.push_notifications),
    // The public API's value for a stream without a week of history.
    stream_weekly_traffic: null,
    subscribers: subscriberIds(realm, stream.id),
    wildcard_mentions_notify: nullableBoolean(row.wildcard_mentions_notify),
  };
}

function activeUsersWithRoles(realm: Realm): { id: number; role: number }[] {
  return realm.stmt('SELECT id, role FROM users WHERE is_active = 1').all() as { id: number; role: number }[];
}

/**
 * Who may see that a stream exists and who is on it (api-notes §d stream create, peer_add):
 * public streams every non-guest user plus subscribed guests; private streams their
 * subscribers and the administrators.
 */
export function streamAudience(realm: Realm, stream: StreamRow): number[] {
  const audience = new Set(subscriberIds(realm, stream.id));
  for (const user of activeUsersWithRoles(realm)) {
    const sees = stream.invite_only === 1 ? isAdminRole(user.role) : user.role !== ROLE.GUEST;
    if (sees) audience.add(user.id);
  }
  return [...audience];
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
    profile_data: {},
    timezone: user.timezone,
    date_joined: isoDate(user.date_joined),
    delivery_email: user.delivery_email,
  };
  if (user.is_bot === 1) {
    person['bot_type'] = user.bot_type;
    person['bot_owner_id'] = user.bot_owner_id;
  }
  return person;
}
