import { STOP_WORDS } from '../lib/stop-words';
import type { Realm } from '../realm';
import { listLinkifiers } from './linkifiers';
import { authenticationMethods, realmColumns, realmSettings, type RealmSettings } from './realm-settings';
import { listPlaygrounds } from './playgrounds';
import { listProfileFields } from './profile-fields';
import { realmEmojiStillUrl, realmEmojiUrl, type RealmEmojiRow } from './realm-emoji';
import type { RealmEmojiMap } from '../schemas/objects';
import type { RealmState } from '../schemas/realm-settings';
import type { RegisterState } from '../schemas/register';

/** Which data types POST /register fetches: the request's list, or null for all. */
export type Wants = (type: string) => boolean;

/** The limits clients enforce before sending (SPEC §Limits; api-notes §e numbers). */
export const LIMITS = {
  max_message_length: 10000,
  max_topic_length: 60,
  max_stream_name_length: 60,
  max_stream_description_length: 1024,
  max_file_upload_size_mib: 25,
  max_avatar_file_size_mib: 5,
  max_icon_file_size_mib: 5,
  max_logo_file_size_mib: 5,
};

// The public API's video-call providers, with neutral names where it names vendors' products.
const VIDEO_CHAT_PROVIDERS = { disabled: { name: 'None', id: 0 }, jitsi_meet: { name: 'Jitsi Meet', id: 1 } };
const GIPHY_RATINGS = {
  disabled: { name: 'GIPHY integration disabled', id: 0 },
  y: { name: 'Allow GIFs rated Y (Very young audience)', id: 1 },
  g: { name: 'Allow GIFs rated G (General audience)', id: 2 },
  pg: { name: 'Allow GIFs rated PG (Parental guidance)', id: 3 },
  pg_13: { name: 'Allow GIFs rated PG-13 (Parental guidance - under 13)', id: 4 },
  r: { name: 'Allow GIFs rated R (Restricted)', id: 5 },
};

/** The realm's settings under register's names: each with `realm_` before it. */
type RegisterNames<T> = { [K in keyof T & string as `realm_${K}`]: T[K] };

function underRegisterNames(settings: RealmSettings): RegisterNames<RealmSettings> {
  // Object.fromEntries forgets the names; the mapped type says what they became.
  return Object.fromEntries(Object.entries(settings).map(([name, value]) => [`realm_${name}`, value])) as RegisterNames<RealmSettings>;
}

/** The `realm` fetch type (api-notes §e): every `realm_*` setting, the server's facts and the `max_*` limits. */
export function realmState(realm: Realm): RealmState {
  const row = realmColumns(realm);
  const settings = realmSettings(realm);
  const methods = authenticationMethods(realm);
  return {
    ...underRegisterNames(settings),
    realm_name: row.name,
    realm_description: row.description,
    realm_uri: realm.url,
    realm_authentication_methods: methods,
    realm_upload_quota_mib: realm.fileSettings.realmQuotaMib,
    realm_icon_url: '',
    realm_icon_source: 'G',
    realm_logo_url: '',
    realm_logo_source: 'D',
    realm_night_logo_url: '',
    realm_night_logo_source: 'D',
    realm_bot_domain: new URL(realm.url).hostname,
    realm_available_video_chat_providers: VIDEO_CHAT_PROVIDERS,
    realm_digest_emails_enabled: settings.digest_emails_enabled,
    // Derived as clients derive them from an authentication_methods update (api-notes §d).
    realm_email_auth_enabled: methods['Email'] === true,
    realm_password_auth_enabled: methods['Email'] === true || methods['LDAP'] === true,
    realm_is_zephyr_mirror_realm: false,
    realm_plan_type: 1,
    realm_push_notifications_enabled: false,
    realm_default_external_accounts: {},
    realm_notifications_stream_id: row.notifications_stream_id ?? -1,
    ...LIMITS,
    // The configured upload limits (MAX_FILE_UPLOAD_SIZE_MIB, MAX_IMAGE_UPLOAD_SIZE_MIB)
    max_file_upload_size_mib: realm.fileSettings.maxUploadMib,
    max_avatar_file_size_mib: realm.fileSettings.maxImageMib,
    settings_send_digest_emails: false,
    server_generation: 0,
    development_environment: false,
    service_plan_is_not_limited: true,
    upgrade_text_for_wide_organization_logo: '',
    password_min_length: 6,
    password_min_guesses: 10000,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: true,
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_web_public_streams_enabled: true,
    giphy_rating_options: GIPHY_RATINGS,
    server_emoji_data_url: `${realm.url}/static/generated/emoji/emoji_api.json`,
    server_needs_upgrade: false,
    event_queue_longpoll_timeout_seconds: 90,
    jitsi_server_url: 'https://meet.jit.si', // the public API's default video-call server
    server_presence_ping_interval_seconds: 60,
    server_presence_offline_threshold_seconds: 200,
  };
}

/** SPEC Custom profile field types; the list-of-options type is named CHOICE (api-notes §e). */
export const CUSTOM_PROFILE_FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: 'Short text' },
  LONG_TEXT: { id: 2, name: 'Long text' },
  CHOICE: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date picker' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Person picker' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
};

/** A realm emoji with whether its upload is animated (read alongside, from images). */
interface RealmEmojiWithAnimation extends RealmEmojiRow {
  animated: number;
}

/** `realm_emoji` (api-notes §e): keyed by ID, deactivated ones included. */
export function realmEmoji(realm: Realm): RealmEmojiMap {
  // An emoji is animated when its upload left a still first frame beside it (actions/realm-emoji.ts).
  const rows = realm
    .rows<RealmEmojiWithAnimation, []>(
      "SELECT id, name, file_name, author_id, deactivated, EXISTS (SELECT 1 FROM images WHERE key = 'emoji/still/' || realm_emoji.id || '.png') AS animated FROM realm_emoji ORDER BY id",
    )
    .all();
  const emoji: RealmEmojiMap = {};
  for (const row of rows) {
    const url = realmEmojiUrl(row.file_name);
    emoji[String(row.id)] = {
      id: String(row.id),
      name: row.name,
      source_url: url,
      still_url: row.animated === 1 ? realmEmojiStillUrl(row.id) : null,
      deactivated: row.deactivated === 1,
      author_id: row.author_id,
    };
  }
  return emoji;
}

/** The realm-wide data types that need no user: settings, emoji, linkifiers, profile fields. */
export function realmWideState(realm: Realm, wants: Wants, linkifierTemplates: boolean): RegisterState {
  const state: RegisterState = {};
  if (wants('realm')) Object.assign(state, realmState(realm));
  if (wants('custom_profile_fields')) {
    state['custom_profile_fields'] = listProfileFields(realm);
    state['custom_profile_field_types'] = CUSTOM_PROFILE_FIELD_TYPES;
  }
  if (wants('stop_words')) state['stop_words'] = [...STOP_WORDS];
  if (wants('realm_emoji')) state['realm_emoji'] = realmEmoji(realm);
  // SPEC capability linkifier_url_template: without it the list is empty.
  if (wants('realm_linkifiers')) state['realm_linkifiers'] = linkifierTemplates ? listLinkifiers(realm) : [];
  if (wants('realm_filters')) state['realm_filters'] = [];
  if (wants('realm_playgrounds')) state['realm_playgrounds'] = listPlaygrounds(realm);
  if (wants('realm_domains')) state['realm_domains'] = [];
  return state;
}
