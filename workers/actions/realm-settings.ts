import { errors } from '../lib/errors';
import { LANGUAGE_NAMES } from '../lib/languages';
import { ROLE } from '../lib/roles';
import { accessStreamById } from '../queries/stream-access';
import { activeUserIds, isAdmin, type UserRow } from '../queries/users';
import {
  AUTHENTICATION_METHOD_DEFAULTS,
  authenticationMethods,
  isPlainSettingName,
  isTimeLimitName,
  realmColumns,
  realmSettings,
  storedRealmJson,
  type PlainSettingName,
  type TimeLimitName,
} from '../queries/realm-settings';
import type { UpdatedRealmSettings } from '../schemas/realm-settings';
import { syncFullMembersTxn } from './full-members';
import type { Realm, Txn } from '../realm';

/*
 * PATCH /realm (administrators; owners for the owner-only settings). Each setting is
 * validated as the public API does; every change is stored under the public API's name and
 * announced with a `realm` event (api-notes §d).
 */

export const BOOLEAN_REALM_SETTINGS = [
  'allow_edit_history',
  'allow_message_editing',
  'avatar_changes_disabled',
  'digest_emails_enabled',
  'disallow_disposable_email_addresses',
  'email_changes_disabled',
  'emails_restricted_to_domains',
  'enable_read_receipts',
  'enable_spectator_access',
  'inline_image_preview',
  'inline_url_embed_preview',
  'invite_required',
  'mandatory_topics',
  'message_content_allowed_in_email_notifications',
  'name_changes_disabled',
  'presence_disabled',
  'send_welcome_emails',
  'want_advertise_in_communities_directory',
] as const satisfies readonly PlainSettingName[];

const COMMON_POLICY = [1, 2, 3, 4];
const MESSAGE_POLICY = [1, 2, 3, 4, 5];
// Moving messages also admits 6, nobody (the public API 7.0, feature level 159).
const MOVE_POLICY = [...MESSAGE_POLICY, 6];

/** The enumerated integer settings and their allowed values (the public API's enums, 7.0). */
export const CHOICE_REALM_SETTINGS: Readonly<Partial<Record<PlainSettingName, readonly number[]>>> = {
  add_custom_emoji_policy: COMMON_POLICY,
  bot_creation_policy: [1, 2, 3],
  create_private_stream_policy: COMMON_POLICY,
  create_public_stream_policy: COMMON_POLICY,
  // administrators, moderators, nobody, owners
  create_web_public_stream_policy: [2, 4, 6, 7],
  delete_own_message_policy: MESSAGE_POLICY,
  digest_weekday: [0, 1, 2, 3, 4, 5, 6],
  edit_topic_policy: MOVE_POLICY,
  giphy_rating: [0, 1, 2, 3, 4, 5],
  // The public API's organization types (unspecified, business, …, personal, other).
  org_type: [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000],
  invite_to_realm_policy: [1, 2, 3, 4, 6],
  invite_to_stream_policy: COMMON_POLICY,
  move_messages_between_streams_policy: MOVE_POLICY,
  private_message_policy: [1, 2],
  user_group_edit_policy: COMMON_POLICY,
  video_chat_provider: [0, 1],
  wildcard_mention_policy: [1, 2, 3, 5, 6, 7],
};

/** Settings that only owners change (the public API's update_realm). */
const OWNER_ONLY = new Set([
  'invite_required',
  'invite_to_realm_policy',
  'emails_restricted_to_domains',
  'disallow_disposable_email_addresses',
  'waiting_period_threshold',
  'message_retention_days',
]);

// The three message-editing settings keep their historical event (api-notes §d realm update_dict).
const UPDATE_DICT_SETTINGS = new Set(['allow_message_editing', 'edit_topic_policy', 'message_content_edit_limit_seconds']);

const MAX_REALM_NAME_LENGTH = 40;
const MAX_REALM_DESCRIPTION_LENGTH = 1000;
const UNLIMITED = 'unlimited';

/** The request, as the endpoint decoded it; absent = unchanged. */
export type RealmSettingsRequest = Record<string, boolean | number | string | undefined>;

type Value = boolean | number | string | null;

/** PATCH /realm's `authentication_methods`: method name → enabled, only the methods it changes. */
export type AuthenticationMethodsRequest = Readonly<Record<string, boolean>>;

/**
 * The realm's authentication methods after `request`, or null when it names none. As the public
 * server: owners only, known names only, and the dict sent must enable at least one method.
 */
function checkAuthenticationMethods(
  realm: Realm,
  actor: UserRow,
  request: AuthenticationMethodsRequest | undefined,
): Record<string, boolean> | null {
  if (request === undefined) return null;
  if (actor.role !== ROLE.OWNER) throw errors.mustBeOwner();
  const known = Object.keys(AUTHENTICATION_METHOD_DEFAULTS).sort();
  for (const name of Object.keys(request)) {
    if (!known.includes(name)) throw errors.invalidAuthenticationMethod(name, known);
  }
  if (!Object.values(request).includes(true)) throw errors.noAuthenticationMethod();
  return { ...authenticationMethods(realm), ...request };
}

/** Validates every parameter before anything is written, so the request succeeds or fails whole. */
export function checkUpdateRealmSettings(realm: Realm, actor: UserRow, request: RealmSettingsRequest): Map<string, Value> {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
  const wanted = new Map<string, Value>();
  for (const [name, raw] of Object.entries(request)) {
    if (raw === undefined) continue;
    if (OWNER_ONLY.has(name) && actor.role !== ROLE.OWNER) throw errors.mustBeOwner();
    wanted.set(name, checkOne(realm, actor, name, raw));
  }
  return wanted;
}

function checkOne(realm: Realm, actor: UserRow, name: string, raw: boolean | number | string): Value {
  const choices = CHOICE_REALM_SETTINGS[name as PlainSettingName];
  if (choices) {
    if (typeof raw !== 'number' || !choices.includes(raw)) {
      throw name === 'video_chat_provider' || name === 'giphy_rating'
        ? errors.badRequest(`Invalid ${name} ${String(raw)}`)
        : errors.invalidSetting(name);
    }
    return raw;
  }
  if (isTimeLimitName(name)) return timeLimit(name, raw);
  switch (name) {
    case 'name':
      if ([...String(raw)].length > MAX_REALM_NAME_LENGTH) throw errors.stringTooLong(name, MAX_REALM_NAME_LENGTH);
      return String(raw);
    case 'description':
      if ([...String(raw)].length > MAX_REALM_DESCRIPTION_LENGTH) throw errors.stringTooLong(name, MAX_REALM_DESCRIPTION_LENGTH);
      return String(raw);
    case 'default_language':
      if (!Object.hasOwn(LANGUAGE_NAMES, String(raw))) throw errors.invalidLanguage(String(raw));
      return String(raw);
    case 'default_code_block_language':
      return String(raw);
    case 'waiting_period_threshold':
      if (typeof raw !== 'number' || raw < 0) throw errors.badValue(name, badValue(raw));
      return raw;
    case 'message_retention_days':
      // "unlimited" is stored as -1, the value register shows (api-notes §e).
      if (raw === UNLIMITED) return -1;
      if (typeof raw !== 'number' || raw <= 0) throw errors.badValue(name, badValue(raw));
      return raw;
    case 'notifications_stream_id':
    case 'signup_notifications_stream_id':
      if (typeof raw !== 'number') throw errors.badValue(name, badValue(raw));
      if (raw !== -1) accessStreamById(realm, actor, raw);
      return raw;
    default:
      return raw;
  }
}

/** The offending value as the error's `bad_value` shows it. */
function badValue(raw: boolean | number | string): number | string {
  return typeof raw === 'boolean' ? String(raw) : raw;
}

/** A time limit: positive seconds, or "unlimited" for none (the public API's special value). */
function timeLimit(name: TimeLimitName, raw: boolean | number | string): number | null {
  if (raw === UNLIMITED) return null;
  if (typeof raw !== 'number' || raw <= 0) throw errors.badValue(name, badValue(raw));
  return raw;
}

/** The current value of a setting PATCH /realm may change. */
function currentValue(realm: Realm, name: string): Value {
  const columns = realmColumns(realm);
  if (name === 'name') return columns.name;
  if (name === 'description') return columns.description;
  if (name === 'notifications_stream_id') return columns.notifications_stream_id ?? -1;
  const settings = realmSettings(realm);
  if (isPlainSettingName(name) || isTimeLimitName(name)) return settings[name];
  return null;
}

/**
 * Writes the changed settings in one transaction and announces each; resolves with the
 * response's changed keys (strings as "updated", as the public API answers).
 */
export function doUpdateRealmSettings(
  realm: Realm,
  actor: UserRow,
  request: RealmSettingsRequest,
  methodsRequest?: AuthenticationMethodsRequest,
): Promise<UpdatedRealmSettings> {
  const wanted = checkUpdateRealmSettings(realm, actor, request);
  const methods = checkAuthenticationMethods(realm, actor, methodsRequest);
  return realm.transact((tx) => {
    const changed: Record<string, Value | AuthenticationMethodsRequest> = {};
    const stored = storedRealmJson(tx.realm);
    let jsonChanged = false;
    for (const [name, value] of wanted) {
      if (currentValue(tx.realm, name) === value) continue;
      if (name === 'name' || name === 'description') {
        tx.realm.stmt(`UPDATE realm SET ${name} = ? WHERE id = 1`).run(value);
      } else if (name === 'notifications_stream_id') {
        tx.realm.stmt('UPDATE realm SET notifications_stream_id = ? WHERE id = 1').run(value === -1 ? null : value);
      } else {
        stored[name] = value;
        jsonChanged = true;
      }
      changed[name] = typeof value === 'string' ? 'updated' : value;
      publishRealmUpdateTxn(tx, name, value);
    }
    if (methods !== null && methodsRequest !== undefined && !sameMethods(authenticationMethods(tx.realm), methods)) {
      stored['authentication_methods'] = methods;
      jsonChanged = true;
      // The response echoes the dict sent; the event carries every method (the public server's).
      changed['authentication_methods'] = methodsRequest;
      tx.publish(
        { type: 'realm', op: 'update_dict', property: 'default', data: { authentication_methods: methods } },
        activeUserIds(tx.realm),
      );
    }
    if (jsonChanged) tx.realm.stmt('UPDATE realm SET settings = ? WHERE id = 1').run(JSON.stringify(stored));
    // A new waiting period promotes or demotes at once (after the realm update event).
    if (Object.hasOwn(changed, 'waiting_period_threshold')) syncFullMembersTxn(tx);
    // The names are the endpoint's parameters, which the result schema lists one by one
    // (test/unit/route-results.test.ts); CONTRACT_CHECKS checks each value's type.
    return changed;
  });
}

function sameMethods(a: Readonly<Record<string, boolean>>, b: Readonly<Record<string, boolean>>): boolean {
  return Object.keys(AUTHENTICATION_METHOD_DEFAULTS).every((name) => a[name] === b[name]);
}

function publishRealmUpdateTxn(tx: Txn, name: string, value: Value): void {
  const event = UPDATE_DICT_SETTINGS.has(name)
    ? { type: 'realm' as const, op: 'update_dict' as const, property: 'default' as const, data: { [name]: value } }
    : { type: 'realm' as const, op: 'update' as const, property: name, value };
  tx.publish(event, activeUserIds(tx.realm));
}
