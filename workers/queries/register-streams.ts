import { ROLE } from '../lib/roles';
import type { Realm } from '../realm';
import type { Wants } from './register-realm';
import { activeStreamsByName, canSeeStream, listStreams, streamObject, subscriberIds, type StreamRow } from './streams';
import {
  inheritedDefaults,
  personalProperties,
  SUBSCRIPTION_SETTINGS_COLUMNS,
  type SubscriptionSettingsRow,
} from './subscription-properties';
import type { UserRow } from './users';
import { defaultStreamGroupObjects } from './default-streams';
import type { neverSubscribedSchema, SubscriptionObject } from '../schemas/objects';
import type { z } from 'zod';
import type { RegisterState } from '../schemas/register';

interface SubscriptionRow extends SubscriptionSettingsRow {
  stream_id: number;
  active: number;
}

export interface StreamStateOptions {
  includeSubscribers: boolean;
  /** Capability `notification_settings_null`: null = inherit the user's setting, sent as is. */
  notificationSettingsNull: boolean;
}

interface SubscriptionState {
  subscriptions: SubscriptionObject[];
  unsubscribed: SubscriptionObject[];
  never_subscribed: z.input<typeof neverSubscribedSchema>[];
}

/** `subscription` (api-notes §e): `subscriptions`, `unsubscribed`, `never_subscribed`. */
export function subscriptionState(realm: Realm, user: UserRow, options: StreamStateOptions): SubscriptionState {
  const subs = realm
    .rows<SubscriptionRow, [number]>(`SELECT stream_id, active, ${SUBSCRIPTION_SETTINGS_COLUMNS} FROM subscriptions WHERE user_id = ?`)
    .all(user.id);
  const byStream = new Map(subs.map((sub) => [sub.stream_id, sub]));
  const subscriptions: SubscriptionObject[] = [];
  const unsubscribed: SubscriptionObject[] = [];
  const neverSubscribed: z.input<typeof neverSubscribedSchema>[] = [];
  // Without the capability a null (inherit) is replaced by the user's own setting.
  const inherited = options.notificationSettingsNull ? null : inheritedDefaults(user);
  for (const { row: stream, object } of activeStreamsByName(realm)) {
    const sub = byStream.get(stream.id);
    const active = sub?.active === 1;
    const subscribers =
      options.includeSubscribers && canSeeStream(user.role, active, stream) ? { subscribers: subscriberIds(realm, stream.id) } : {};
    if (sub) (active ? subscriptions : unsubscribed).push({ ...object, ...personalProperties(sub, inherited), ...subscribers });
    else if (canSeeStream(user.role, false, stream)) neverSubscribed.push({ ...object, ...subscribers, stream_weekly_traffic: null });
  }
  return { subscriptions, unsubscribed, never_subscribed: neverSubscribed };
}

/** The stream data types: subscriptions, streams, default streams and groups. */
export function streamsState(realm: Realm, user: UserRow, wants: Wants, options: StreamStateOptions): RegisterState {
  const state: RegisterState = {};
  if (wants('subscription')) Object.assign(state, subscriptionState(realm, user, options));
  if (wants('stream')) {
    const isGuest = user.role === ROLE.GUEST;
    const listed = listStreams(realm, user.id, {
      includePublic: !isGuest,
      // web-public streams are visible to everyone, guests included
      includeWebPublic: true,
      includeSubscribed: true,
      includeAllActive: user.role <= ROLE.ADMINISTRATOR,
      includeOwnerSubscribedFor: null,
    });
    state['streams'] = listed.map(({ object }) => object);
  }
  if (wants('default_streams')) {
    state['realm_default_streams'] = user.role === ROLE.GUEST ? [] : defaultStreams(realm).map((row) => streamObject(row));
  }
  // stream-prefs: POST /default_stream_groups/create and its siblings fill it.
  // Guests get no default_stream_groups events either (actions/default-stream-groups.ts).
  if (wants('default_stream_groups'))
    state['realm_default_stream_groups'] = user.role === ROLE.GUEST ? [] : defaultStreamGroupObjects(realm);
  return state;
}

function defaultStreams(realm: Realm): StreamRow[] {
  return realm.rows<StreamRow, []>('SELECT * FROM streams WHERE is_default = 1 AND deactivated = 0 ORDER BY id').all();
}

/** What a spectator may see (SPEC §Authentication 3): web-public streams only. */
export function spectatorStreamsState(realm: Realm, wants: Wants): RegisterState {
  const state: RegisterState = {};
  const webPublic = () =>
    realm
      .rows<StreamRow, []>('SELECT * FROM streams WHERE is_web_public = 1 AND deactivated = 0 ORDER BY name COLLATE NOCASE')
      .all()
      .map((row) => streamObject(row));
  if (wants('stream')) state['streams'] = webPublic();
  if (wants('subscription')) {
    state['subscriptions'] = [];
    state['unsubscribed'] = [];
    state['never_subscribed'] = webPublic().map((stream) => ({ ...stream, stream_weekly_traffic: null }));
  }
  if (wants('default_streams')) state['realm_default_streams'] = [];
  if (wants('default_stream_groups')) state['realm_default_stream_groups'] = [];
  return state;
}
