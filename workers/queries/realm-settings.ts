import { OWNERS_ONLY_POLICY, POLICY, rolePassesStreamPolicy } from '../lib/policy';
import { ROLE } from '../lib/roles';
import type { Realm } from '../realm';
import { versionedCache } from './cache-version';

/*
 * The ONE source of every realm setting (api-notes §e `realm_*`). A setting's value is what
 * the realm row's `settings` JSON stores under the public API's name, else the public API's
 * default for a new organization (7.0); name, description and the notifications stream live in
 * their own columns. Every rule (editing, moving, stream creation, spectators, retention,
 * presence) reads through here, and so does register.
 */

const TEN_MINUTES_S = 600;
const SEVEN_DAYS_S = 7 * 24 * 60 * 60;

export const REALM_SETTING_DEFAULTS = {
  add_custom_emoji_policy: POLICY.MEMBERS as number,
  allow_edit_history: true,
  allow_message_editing: true,
  avatar_changes_disabled: false,
  bot_creation_policy: 1,
  create_private_stream_policy: POLICY.MEMBERS as number,
  create_public_stream_policy: POLICY.MEMBERS as number,
  create_web_public_stream_policy: OWNERS_ONLY_POLICY as number,
  default_code_block_language: '',
  default_language: 'en',
  delete_own_message_policy: POLICY.ADMINS as number,
  digest_emails_enabled: false,
  digest_weekday: 1,
  disallow_disposable_email_addresses: true,
  edit_topic_policy: POLICY.EVERYONE as number,
  email_changes_disabled: false,
  emails_restricted_to_domains: false,
  enable_read_receipts: true,
  enable_spectator_access: false,
  giphy_rating: 2,
  inline_image_preview: true,
  inline_url_embed_preview: false,
  invite_required: true,
  invite_to_realm_policy: POLICY.MEMBERS as number,
  invite_to_stream_policy: POLICY.MEMBERS as number,
  mandatory_topics: false,
  message_content_allowed_in_email_notifications: true,
  /** -1: unlimited (api-notes §e realm_message_retention_days). */
  message_retention_days: -1,
  move_messages_between_streams_policy: POLICY.ADMINS as number,
  name_changes_disabled: false,
  /** The organization type (api-notes §e realm_org_type; 0 = unspecified). */
  org_type: 0,
  presence_disabled: false,
  private_message_policy: 1,
  send_welcome_emails: true,
  /** Where new users are announced; -1: nowhere (api-notes §e realm_signup_notifications_stream_id). */
  signup_notifications_stream_id: -1,
  user_group_edit_policy: POLICY.MEMBERS as number,
  video_chat_provider: 1,
  waiting_period_threshold: 0,
  want_advertise_in_communities_directory: false,
  wildcard_mention_policy: 5,
};

/** The time limits: seconds, or null for no limit (openapi: "Will not be 0"). */
export const TIME_LIMIT_DEFAULTS = {
  message_content_edit_limit_seconds: TEN_MINUTES_S as number | null,
  message_content_delete_limit_seconds: TEN_MINUTES_S as number | null,
  move_messages_within_stream_limit_seconds: SEVEN_DAYS_S as number | null,
  move_messages_between_streams_limit_seconds: SEVEN_DAYS_S as number | null,
};

export type PlainSettingName = keyof typeof REALM_SETTING_DEFAULTS;
export type TimeLimitName = keyof typeof TIME_LIMIT_DEFAULTS;
export type RealmSettings = { -readonly [K in PlainSettingName]: (typeof REALM_SETTING_DEFAULTS)[K] } & {
  -readonly [K in TimeLimitName]: number | null;
};

export function isPlainSettingName(name: string): name is PlainSettingName {
  return Object.hasOwn(REALM_SETTING_DEFAULTS, name);
}

export function isTimeLimitName(name: string): name is TimeLimitName {
  return Object.hasOwn(TIME_LIMIT_DEFAULTS, name);
}

export interface RealmColumns {
  name: string;
  description: string;
  notifications_stream_id: number | null;
}

/*
 * Read once while cache_version stands (an update of the realm row moves it: migration 19), not
 * on every send and presence answer that asks for a setting. Frozen: every caller shares it.
 */
const realmRow = versionedCache((realm: Realm): Readonly<RealmColumns & { settings: string }> =>
  Object.freeze(
    realm.oneRow<RealmColumns & { settings: string }>(
      'SELECT name, description, notifications_stream_id, settings FROM realm WHERE id = 1',
    ),
  ),
);

/** The realm row's `settings` JSON text, unparsed: for readers of one setting with their own fallback. */
export function realmSettingsText(realm: Realm): string {
  return realmRow(realm).settings;
}

export function parseSettingsJson(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The realm row's `settings` JSON as stored (settings and `user_settings_defaults`). */
export function storedRealmJson(realm: Realm): Record<string, unknown> {
  return parseSettingsJson(realmRow(realm).settings);
}

/**
 * The authentication methods a realm may switch on and off, under the public server's names for
 * them (register's `realm_authentication_methods`); Email is password login.
 */
export const AUTHENTICATION_METHOD_DEFAULTS: Readonly<Record<string, boolean>> = { Email: true, Dev: false, LDAP: false };

/** The realm's authentication methods: what PATCH /realm stored over the defaults. */
export function authenticationMethods(realm: Realm): Record<string, boolean> {
  const stored = storedRealmJson(realm)['authentication_methods'];
  const methods = { ...AUTHENTICATION_METHOD_DEFAULTS };
  if (typeof stored !== 'object' || stored === null) return methods;
  for (const name of Object.keys(methods)) {
    const value = (stored as Record<string, unknown>)[name];
    if (typeof value === 'boolean') methods[name] = value;
  }
  return methods;
}

/**
 * Every realm setting: a stored value of the default's type, else the default. Kept while
 * cache_version stands, as the realm row it comes from (a PATCH /realm moves it): built on every
 * call, parsing the row's JSON and merging the defaults cost 60-80 µs of every GET /messages and
 * presence ping under load (CPU profile of `mixed`, 5,000 people).
 */
export const realmSettings = versionedCache((realm: Realm): Readonly<RealmSettings> => {
  const stored = storedRealmJson(realm);
  const settings = { ...REALM_SETTING_DEFAULTS, ...TIME_LIMIT_DEFAULTS } as Record<string, unknown>;
  for (const [name, fallback] of Object.entries(REALM_SETTING_DEFAULTS)) {
    if (typeof stored[name] === typeof fallback) settings[name] = stored[name];
  }
  for (const name of Object.keys(TIME_LIMIT_DEFAULTS)) {
    const value = stored[name];
    if (value === null || (typeof value === 'number' && Number.isInteger(value) && value > 0)) settings[name] = value;
  }
  return Object.freeze(settings as RealmSettings);
});

/** The language a code fence that names none is rendered as ('' none): read on every render. */
export function defaultCodeBlockLanguage(realm: Realm): string {
  const stored = storedRealmJson(realm)['default_code_block_language'];
  return typeof stored === 'string' ? stored : '';
}

/** The settings kept in their own columns of the realm row. */
export function realmColumns(realm: Realm): RealmColumns {
  const { name, description, notifications_stream_id } = realmRow(realm);
  return { name, description, notifications_stream_id };
}

/** The realm settings that govern editing, moving and deleting messages. */
export type MessageEditSettings = Pick<
  RealmSettings,
  | 'allow_message_editing'
  | 'allow_edit_history'
  | 'edit_topic_policy'
  | 'move_messages_between_streams_policy'
  | 'delete_own_message_policy'
  | TimeLimitName
>;

export function messageEditSettings(realm: Realm): MessageEditSettings {
  return realmSettings(realm);
}

/** SPEC §Authentication 3: may POST /register and GET /messages be called without credentials? */
export function spectatorAccessEnabled(realm: Realm): boolean {
  return realmSettings(realm).enable_spectator_access;
}

/** The stream permission settings (api-notes §e realm_*_policy). */
export type StreamPolicySettings = Pick<
  RealmSettings,
  | 'create_public_stream_policy'
  | 'create_private_stream_policy'
  | 'create_web_public_stream_policy'
  | 'invite_to_stream_policy'
  | 'enable_spectator_access'
>;

export function streamPolicySettings(realm: Realm): StreamPolicySettings {
  return realmSettings(realm);
}

/** The realm's `message_retention_days` (SPEC Stream): a positive count of days, else null (unlimited). */
export function realmRetentionDays(realm: Realm): number | null {
  const days = realmSettings(realm).message_retention_days;
  return days > 0 ? days : null;
}

const DAY_S = 24 * 60 * 60;

/**
 * Whether `user` passes one of the realm's permission policies. Full members are members whose
 * account is older than the realm's `waiting_period_threshold` days (the public API's rule);
 * the web-public policy's "owners only" level is included.
 */
export function passesRealmPolicy(realm: Realm, user: { role: number; date_joined: number }, policy: number): boolean {
  if (policy === POLICY.FULL_MEMBERS && user.role === ROLE.MEMBER) {
    const threshold = realmSettings(realm).waiting_period_threshold;
    return Math.floor(realm.clock.now() / 1000) - user.date_joined >= threshold * DAY_S;
  }
  return rolePassesStreamPolicy(user.role, policy);
}
