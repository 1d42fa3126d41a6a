import { isAdminRole } from '../lib/roles';
import type { Realm } from '../realm';
import { avatarUrl, userById, type UserRow } from './users';
import type { BotDefaults, BotObject } from '../schemas/objects';

/** A bot's row in bot_settings (migration 8): default streams and its service. */
export interface BotSettingsRow {
  bot_id: number;
  default_sending_stream_id: number | null;
  default_events_register_stream_id: number | null;
  default_all_public_streams: number;
  service_name: string | null;
  service_base_url: string | null;
  service_interface: number | null;
  service_token: string | null;
  config_data: string;
}

export const BOT_TYPE = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;

export function botSettings(realm: Realm, botId: number): BotSettingsRow | undefined {
  return realm.rows<BotSettingsRow, [number]>('SELECT * FROM bot_settings WHERE bot_id = ?').get(botId);
}

function streamName(realm: Realm, streamId: number | null): string | null {
  if (streamId === null) return null;
  const row = realm.rows<{ name: string }, [number]>('SELECT name FROM streams WHERE id = ?').get(streamId);
  return row?.name ?? null;
}

/** The reference OpenAPI's bot `services`: one entry for outgoing-webhook and embedded bots. */
export function botServices(bot: UserRow, settings: BotSettingsRow | undefined): BotObject['services'] {
  if (!settings) return [];
  if (bot.bot_type === BOT_TYPE.OUTGOING_WEBHOOK) {
    return [{ base_url: settings.service_base_url ?? '', interface: settings.service_interface ?? 1, token: settings.service_token ?? '' }];
  }
  if (bot.bot_type === BOT_TYPE.EMBEDDED) {
    return [{ service_name: settings.service_name ?? '', config_data: JSON.parse(settings.config_data) as Record<string, string> }];
  }
  return [];
}

/** The default-stream fields of a bot, by stream name (api-notes §e realm_bots, POST /bots). */
export function botDefaults(realm: Realm, settings: BotSettingsRow | undefined): BotDefaults {
  return {
    default_sending_stream: streamName(realm, settings?.default_sending_stream_id ?? null),
    default_events_register_stream: streamName(realm, settings?.default_events_register_stream_id ?? null),
    default_all_public_streams: settings?.default_all_public_streams === 1,
  };
}

/** The reference OpenAPI's `Bot`: what realm_bot add and `realm_bots` carry (API key included). */
export function botObject(realm: Realm, bot: UserRow): BotObject {
  const settings = botSettings(realm, bot.id);
  return {
    email: bot.email,
    user_id: bot.id,
    full_name: bot.full_name,
    bot_type: bot.bot_type,
    is_active: bot.is_active === 1,
    api_key: bot.api_key,
    ...botDefaults(realm, settings),
    avatar_url: avatarUrl(bot),
    services: botServices(bot, settings),
    owner_id: bot.bot_owner_id,
  };
}

/** `realm_bots` (api-notes §e): the bots the caller owns, or every bot for administrators. */
export function botsFor(realm: Realm, user: UserRow): BotObject[] {
  const sql = isAdminRole(user.role)
    ? 'SELECT id FROM users WHERE is_bot = 1 AND is_system_bot = 0 ORDER BY id'
    : 'SELECT id FROM users WHERE bot_owner_id = ? AND is_bot = 1 ORDER BY id';
  const ids = isAdminRole(user.role) ? realm.rows<{ id: number }, []>(sql).all() : realm.rows<{ id: number }, [number]>(sql).all(user.id);
  return ids
    .map((row) => userById(realm, row.id))
    .filter((bot): bot is UserRow => bot !== undefined)
    .map((bot) => botObject(realm, bot));
}
