import type { Realm } from '../realm';
import { canSeeStream, streamObject, subscriberIds, type StreamRow } from './streams';
import { personalProperties, subscriptionSettings } from './subscription-properties';
import { userObject, type Viewer } from './people';
import type { UserRow } from './users';
import type { SubscriptionObject, UserObject } from '../schemas/objects';

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
export function subscriptionObject(realm: Realm, userId: number, stream: StreamRow): SubscriptionObject {
  const settings = subscriptionSettings(realm, userId, stream.id);
  if (!settings) throw new Error(`no subscription of user ${userId} to stream ${stream.id}`);
  return { ...streamObject(stream), ...personalProperties(settings, null), subscribers: subscriberIds(realm, stream.id) };
}

function activeUsersWithRoles(realm: Realm): { id: number; role: number }[] {
  return realm.rows<{ id: number; role: number }, []>('SELECT id, role FROM users WHERE is_active = 1').all();
}

/** Who may see that a stream exists and who is on it (api-notes §d stream create, peer_add). */
export function streamAudience(realm: Realm, stream: StreamRow): number[] {
  const subscribers = new Set(subscriberIds(realm, stream.id));
  return activeUsersWithRoles(realm)
    .filter((user) => canSeeStream(user.role, subscribers.has(user.id), stream))
    .map((user) => user.id);
}

/**
 * api-notes §d realm_user add: the person as GET /users shows them to `viewer` (SPEC User
 * delivery_email); `profile_data` only for people (SPEC User.profile_data).
 */
export function personObject(realm: Realm, viewer: Viewer, user: UserRow): UserObject {
  const person = userObject(realm, viewer, user, { clientExtavatar: false });
  return person;
}
