import { errors } from '../lib/errors';
import type { PresenceTimes } from '../lib/presence';
import { OFFLINE_THRESHOLD_S, PRESENCE_CLIENT, legacyStatus } from '../queries/presence';
import { realmSettings } from '../queries/realm-settings';
import { userSettings } from '../queries/user-settings';
import { activeUserIdsUpTo, type UserRow } from '../queries/users';
import type { Realm } from '../realm';

export type PresenceStatus = 'active' | 'idle';

export function checkPresenceStatus(status: string): PresenceStatus {
  if (status !== 'active' && status !== 'idle') throw errors.badRequest(`Invalid status: ${status}`);
  return status;
}

/**
 * The public server's USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS: a realm of more active
 * users gets no presence events (everyone coming online would wake everyone's poll, work that
 * grows with the square of the realm); its clients see presence in the answers to their own
 * pings, every minute.
 */
export const MAX_REALM_SIZE_FOR_PRESENCE_EVENTS = 100;

/**
 * A presence ping (POST /users/me/presence): recorded in the shard's memory, not written (the
 * presence actor flushes). Others hear of it with a `presence` event when the user comes online
 * or what they show changes; the event carries what register would now show (legacyStatus),
 * so an `idle` ping soon after an active one changes nothing; a realm of over
 * MAX_REALM_SIZE_FOR_PRESENCE_EVENTS active users hears nothing this way. A user with `presence_enabled`
 * off is not recorded at all.
 */
export function doUpdatePresence(realm: Realm, user: UserRow, status: PresenceStatus): void {
  if (!userSettings(user).presence_enabled) return;
  const now = Math.floor(realm.clock.now() / 1000);
  const before = realm.presence.record(user.id, now, status === 'active');
  const after = realm.presence.get(user.id);
  if (!after || !shouldAnnounce(before, after, now) || realmSettings(realm).presence_disabled) return;
  const receivers = activeUserIdsUpTo(realm, MAX_REALM_SIZE_FOR_PRESENCE_EVENTS + 1);
  if (receivers.length > MAX_REALM_SIZE_FOR_PRESENCE_EVENTS) return;
  const shown = legacyStatus(after);
  // No write to commit: the event goes out at once, as typing's do (workers/events/outbox.ts).
  realm.events.publish(
    {
      type: 'presence',
      user_id: user.id,
      email: user.email,
      server_timestamp: realm.clock.now() / 1000,
      presence: { [PRESENCE_CLIENT]: { client: PRESENCE_CLIENT, status: shown.status, timestamp: shown.timestamp, pushable: false } },
    },
    receivers,
  );
}

function shouldAnnounce(before: PresenceTimes | undefined, after: PresenceTimes, now: number): boolean {
  if (!before || now - before.lastConnected > OFFLINE_THRESHOLD_S) return true;
  return legacyStatus(before).status !== legacyStatus(after).status;
}

const UPSERT_PRESENCE = `INSERT INTO user_presence (user_id, last_connected_time, last_active_time) VALUES (?, ?, ?)
  ON CONFLICT (user_id) DO UPDATE SET last_connected_time = excluded.last_connected_time, last_active_time = excluded.last_active_time`;

/** The periodic flush: the users pinged since the last one, in one transaction. */
export function doFlushPresence(realm: Realm): Promise<void> {
  const changed = realm.presence.takeDirty();
  if (changed.length === 0) return Promise.resolve();
  return realm
    .transact((tx) => {
      for (const [userId, times] of changed) tx.realm.stmt(UPSERT_PRESENCE).run(userId, times.lastConnected, times.lastActive);
    })
    .catch((err: unknown) => {
      // Still in memory: the next flush writes them (with whatever pings came since).
      realm.presence.markDirty(changed.map(([userId]) => userId));
      throw err;
    });
}

/**
 * The last flush, at close: synchronous, because the realm file closes right after the actors
 * stop and a queued transaction would never run.
 */
export function flushPresenceNow(realm: Realm): void {
  const changed = realm.presence.takeDirty();
  if (changed.length === 0) return;
  realm.db.transaction(() => {
    for (const [userId, times] of changed) realm.stmt(UPSERT_PRESENCE).run(userId, times.lastConnected, times.lastActive);
  })();
}
