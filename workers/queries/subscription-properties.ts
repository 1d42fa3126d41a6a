import type { Realm } from '../realm';
import { userSettings } from './user-settings';
import type { UserRow } from './users';
import type { PersonalProperties } from '../schemas/objects';

/** A subscription's personal settings as stored (null: the user's global setting applies). */
export interface SubscriptionSettingsRow {
  color: string;
  is_muted: number;
  pin_to_top: number;
  desktop_notifications: number | null;
  audible_notifications: number | null;
  push_notifications: number | null;
  email_notifications: number | null;
  wildcard_mentions_notify: number | null;
}

export const SUBSCRIPTION_SETTINGS_COLUMNS = `color, is_muted, pin_to_top, desktop_notifications, audible_notifications,
  push_notifications, email_notifications, wildcard_mentions_notify`;

export const INHERITED_PROPERTIES = [
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;

export type InheritedProperty = (typeof INHERITED_PROPERTIES)[number];

/** What a null stream notification setting stands for: the user's own global setting. */
export function inheritedDefaults(user: Pick<UserRow, 'settings'>): Record<InheritedProperty, boolean> {
  const settings = userSettings(user);
  return {
    desktop_notifications: settings.enable_stream_desktop_notifications,
    audible_notifications: settings.enable_stream_audible_notifications,
    push_notifications: settings.enable_stream_push_notifications,
    email_notifications: settings.enable_stream_email_notifications,
    wildcard_mentions_notify: settings.wildcard_mentions_notify,
  };
}

/**
 * The personal properties of one subscription (SPEC POST /users/me/subscriptions/properties).
 * `inherited` null keeps a null as null (capability `notification_settings_null`); otherwise
 * a null becomes the user's own setting.
 */
export function personalProperties(sub: SubscriptionSettingsRow, inherited: Record<InheritedProperty, boolean> | null): PersonalProperties {
  const resolved = (name: InheritedProperty): boolean | null => {
    const stored = sub[name];
    return stored === null ? (inherited === null ? null : inherited[name]) : stored === 1;
  };
  return {
    color: sub.color,
    is_muted: sub.is_muted === 1,
    in_home_view: sub.is_muted === 0,
    pin_to_top: sub.pin_to_top === 1,
    // No incoming-email gateway exists (SPEC): no address to show.
    email_address: '',
    // The public API's value for a stream without a week of history.
    stream_weekly_traffic: null,
    desktop_notifications: resolved('desktop_notifications'),
    audible_notifications: resolved('audible_notifications'),
    push_notifications: resolved('push_notifications'),
    email_notifications: resolved('email_notifications'),
    wildcard_mentions_notify: resolved('wildcard_mentions_notify'),
  };
}

export function subscriptionSettings(realm: Realm, userId: number, streamId: number): SubscriptionSettingsRow | undefined {
  return realm
    .rows<SubscriptionSettingsRow, [number, number]>(
      `SELECT ${SUBSCRIPTION_SETTINGS_COLUMNS} FROM subscriptions WHERE user_id = ? AND stream_id = ?`,
    )
    .get(userId, streamId);
}
