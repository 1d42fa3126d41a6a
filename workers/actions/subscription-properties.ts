import { errors } from '../lib/errors';
import { ROLE } from '../lib/roles';
import { isSubscribed, streamById } from '../queries/streams';
import type { UserRow } from '../queries/users';
import type { Realm } from '../realm';

/** One entry of `subscription_data` (SPEC POST /users/me/subscriptions/properties). */
export interface SubscriptionPropertyChange {
  stream_id: number;
  property: string;
  value: unknown;
}

/** A validated change: the column it writes and the events it produces. */
interface CheckedChange {
  streamId: number;
  column: string;
  stored: string | number;
  events: { property: string; value: string | boolean }[];
}

const BOOLEAN_COLUMNS = new Set([
  'pin_to_top',
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
]);

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

function checkBoolean(property: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw errors.badRequest(`${property} is not a boolean`);
  return value;
}

/** Validates one change; the stream must exist and the caller be subscribed to it. */
function checkChange(realm: Realm, user: UserRow, change: SubscriptionPropertyChange): CheckedChange {
  const stream = streamById(realm, change.stream_id);
  if (!stream) throw errors.invalidStreamId();
  if (!isSubscribed(realm, user.id, stream.id)) {
    // A stream the caller may not see reads as nonexistent (SPEC: private streams invisible).
    if (stream.invite_only || user.role === ROLE.GUEST) throw errors.invalidStreamId();
    throw errors.notSubscribedToStream(stream.id);
  }
  const { property, value } = change;
  if (property === 'color') {
    if (typeof value !== 'string') throw errors.badRequest('color is not a string');
    if (!HEX_COLOR.test(value)) throw errors.badRequest('color is not a valid hex color code');
    return { streamId: stream.id, column: 'color', stored: value, events: [{ property, value }] };
  }
  if (property === 'is_muted' || property === 'in_home_view') {
    const muted = property === 'is_muted' ? checkBoolean(property, value) : !checkBoolean(property, value);
    // SPEC §Events: one update event per property, the legacy inverse included.
    return {
      streamId: stream.id,
      column: 'is_muted',
      stored: muted ? 1 : 0,
      events: [
        { property: 'in_home_view', value: !muted },
        { property: 'is_muted', value: muted },
      ],
    };
  }
  if (BOOLEAN_COLUMNS.has(property)) {
    const flag = checkBoolean(property, value);
    return { streamId: stream.id, column: property, stored: flag ? 1 : 0, events: [{ property, value: flag }] };
  }
  throw errors.unknownSubscriptionProperty(property);
}

/**
 * POST /users/me/subscriptions/properties: every change is validated before any is written, so
 * a bad entry leaves all subscriptions as they were; then one transaction applies them all.
 */
export async function doUpdateSubscriptionProperties(realm: Realm, user: UserRow, changes: SubscriptionPropertyChange[]): Promise<void> {
  const checked = changes.map((change) => checkChange(realm, user, change));
  await realm.transact((tx) => {
    for (const change of checked) {
      // Column names come from the fixed set above, never from the request.
      tx.realm
        .stmt(`UPDATE subscriptions SET ${change.column} = ? WHERE user_id = ? AND stream_id = ?`)
        .run(change.stored, user.id, change.streamId);
      for (const event of change.events) {
        tx.publish({ type: 'subscription', op: 'update', stream_id: change.streamId, ...event }, [user.id]);
      }
    }
  });
}
