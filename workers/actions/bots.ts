import { publishPersonAddedTxn } from './people-events';
import { epochSeconds } from '../lib/clock';
import { errors } from '../lib/errors';
import { isAdminRole, ROLE } from '../lib/roles';
import { generateApiKey } from '../lib/secrets';
import { activeUserNamed, botAdministratorIds, canAdministerUser, isSystemBot, roleGroupId } from '../queries/accounts';
import { BOT_TYPE, botDefaults, botObject, botServices, botSettings } from '../queries/bots';
import { canSeeStream, isSubscribed, streamByName } from '../queries/streams';
import { activeUserIds, avatarUrl, userByDeliveryEmail, userByEmail, userById, type UserRow, storedUser } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { deactivateBotTxn } from './deactivation';
import { checkFullName } from './users';
import { changeRoleTxn, checkRoleChange, renameTxn } from './user-roles';
import { syncFullMembersTxn } from './full-members';
import { realmSettingsText } from '../queries/realm-settings';
import { newUserSettingsJson } from '../queries/realm-user-defaults';
import type { BotDefaults, createdBotSchema, ownBotSchema, updatedBotSchema } from '../schemas/objects';
import type { z } from 'zod';

/** Realm setting `bot_creation_policy` (api-notes §e): 1 everyone, 2 generic bots only, 3 administrators. */
const BOT_CREATION_POLICY = { EVERYONE: 1, LIMIT_GENERIC_ONLY: 2, ADMINS_ONLY: 3 } as const;
/** The embedded bots the public server ships; anything else is an invalid name. */
const EMBEDDED_BOT_NAMES: readonly string[] = ['converter', 'encrypt', 'helloworld', 'virtual_fs', 'giphy', 'followup'];
/** Outgoing webhook formats: 1 the service's own, 2 the emulated third-party format. */
const SERVICE_INTERFACES: readonly number[] = [1, 2];
const BOT_TYPES: readonly number[] = Object.values(BOT_TYPE);

/** Bots are for members and up: guests and bots are refused first (the public API's order). */
export function checkMemberOrAdmin(actor: UserRow): void {
  if (actor.is_bot === 1) throw errors.notAllowedForBots();
  if (actor.role === ROLE.GUEST) throw errors.notAllowedForGuests();
}

/** The realm row's `settings` JSON (the org slice writes it), with the public API's default. */
function botCreationPolicy(realm: Realm): number {
  const value = (JSON.parse(realmSettingsText(realm)) as Record<string, unknown>)['bot_creation_policy'];
  return typeof value === 'number' ? value : BOT_CREATION_POLICY.EVERYONE;
}

function checkBotCreationPolicy(realm: Realm, actor: UserRow, botType: number): void {
  if (isAdminRole(actor.role)) return;
  const policy = botCreationPolicy(realm);
  if (policy === BOT_CREATION_POLICY.ADMINS_ONLY) throw errors.mustBeAdmin();
  if (policy === BOT_CREATION_POLICY.LIMIT_GENERIC_ONLY && botType !== BOT_TYPE.GENERIC) throw errors.mustBeAdmin();
}

/** A name no active account uses (the public API compares the stripped name exactly). */
function checkBotNameAvailable(realm: Realm, fullName: string): void {
  if (activeUserNamed(realm, fullName)) throw errors.botNameTaken();
}

/** A stream named for a bot's defaults, which the actor must be able to see. */
function checkDefaultStream(realm: Realm, actor: UserRow, name: string): number {
  const stream = streamByName(realm, name);
  if (!stream || !canSeeStream(actor.role, isSubscribed(realm, actor.id, stream.id), stream)) throw errors.invalidStreamName(name);
  return stream.id;
}

function checkPayloadUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return url;
  } catch {
    // falls through to the error
  }
  throw errors.invalidArgument('payload_url', 'payload_url is not a URL');
}

function checkInterface(value: number): number {
  if (!SERVICE_INTERFACES.includes(value)) throw errors.invalidInterfaceType();
  return value;
}

export interface NewBot {
  fullName: string;
  shortName: string;
  botType: number;
  payloadUrl?: string | undefined;
  serviceName?: string | undefined;
  interfaceType: number;
  configData: Record<string, string>;
  defaultSendingStream?: string | undefined;
  defaultEventsRegisterStream?: string | undefined;
  defaultAllPublicStreams?: boolean | undefined;
}

/** The bot's email: `<short_name>-bot@<realm host>` (the public API's bot domain). */
function botEmail(realm: Realm, shortName: string): string {
  const short = shortName.trim();
  // The local part must be a plain address part: no spaces, no second @.
  if (short === '' || !/^[A-Za-z0-9._+-]+$/.test(short)) throw errors.badNameOrUsername();
  return `${short}-bot@${new URL(realm.url).hostname}`;
}

/** POST /bots: creates the bot, owned by the actor; returns the response body's fields. */
export function doCreateBot(realm: Realm, actor: UserRow, spec: NewBot): Promise<z.input<typeof createdBotSchema>> {
  checkMemberOrAdmin(actor);
  const email = botEmail(realm, spec.shortName);
  const fullName = checkFullName(spec.fullName);
  if (userByDeliveryEmail(realm, email) || userByEmail(realm, email)) throw errors.usernameTaken();
  checkBotNameAvailable(realm, fullName);
  checkBotCreationPolicy(realm, actor, spec.botType);
  if (!BOT_TYPES.includes(spec.botType)) throw errors.invalidBotType();
  const interfaceType = checkInterface(spec.interfaceType);
  // A service bot's name defaults to its short name (not for incoming webhooks).
  const serviceName = spec.botType === BOT_TYPE.INCOMING_WEBHOOK ? spec.serviceName : (spec.serviceName ?? spec.shortName.trim());
  if (spec.botType === BOT_TYPE.EMBEDDED && !EMBEDDED_BOT_NAMES.includes(serviceName ?? '')) throw errors.invalidEmbeddedBotName();
  const payloadUrl = spec.payloadUrl === undefined || spec.payloadUrl === '' ? '' : checkPayloadUrl(spec.payloadUrl);
  const sendingStreamId = spec.defaultSendingStream === undefined ? null : checkDefaultStream(realm, actor, spec.defaultSendingStream);
  const registerStreamId =
    spec.defaultEventsRegisterStream === undefined ? null : checkDefaultStream(realm, actor, spec.defaultEventsRegisterStream);
  const hasService = spec.botType === BOT_TYPE.OUTGOING_WEBHOOK || spec.botType === BOT_TYPE.EMBEDDED;
  return realm.transact((tx) => {
    if (userByDeliveryEmail(tx.realm, email) || userByEmail(tx.realm, email)) throw errors.usernameTaken();
    const now = epochSeconds(tx.realm.clock);
    const botId = Number(
      tx.realm
        .stmt(
          `INSERT INTO users (email, delivery_email, full_name, api_key, password_hash, role, is_bot, bot_type, bot_owner_id, date_joined, settings)
           VALUES (?, ?, ?, ?, NULL, ?, 1, ?, ?, ?, ?)`,
        )
        // The organization's defaults for new users' settings apply to bots too.
        .run(email, email, fullName, generateApiKey(), ROLE.MEMBER, spec.botType, actor.id, now, newUserSettingsJson(tx.realm))
        .lastInsertRowid,
    );
    tx.realm
      .stmt(
        `INSERT INTO bot_settings (bot_id, default_sending_stream_id, default_events_register_stream_id, default_all_public_streams,
           service_name, service_base_url, service_interface, service_token, config_data)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        botId,
        sendingStreamId,
        registerStreamId,
        spec.defaultAllPublicStreams === true ? 1 : 0,
        serviceName ?? null,
        hasService ? payloadUrl : null,
        hasService ? interfaceType : null,
        hasService ? generateApiKey() : null,
        JSON.stringify(spec.configData),
      );
    const bot = storedUser(tx.realm, botId);
    const everyone = activeUserIds(tx.realm);
    publishPersonAddedTxn(tx, bot);
    const group = roleGroupId(tx.realm, ROLE.MEMBER);
    if (group !== null) {
      tx.realm.stmt('INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)').run(group, botId);
      tx.publish({ type: 'user_group', op: 'add_members', group_id: group, user_ids: [botId] }, everyone);
    }
    // Bots have the member role, so the public API counts them as full members too.
    syncFullMembersTxn(tx);
    tx.publish({ type: 'realm_bot', op: 'add', bot: botObject(tx.realm, bot) }, botAdministratorIds(tx.realm, bot));
    return { user_id: botId, api_key: bot.api_key, avatar_url: avatarUrl(bot), ...botDefaults(tx.realm, botSettings(tx.realm, botId)) };
  });
}

/** GET /bots: the caller's active bots, oldest first (the public server's listing). */
export function listOwnBots(realm: Realm, actor: UserRow): z.input<typeof ownBotSchema>[] {
  checkMemberOrAdmin(actor);
  const rows = realm
    .rows<{ id: number }, [number]>('SELECT id FROM users WHERE bot_owner_id = ? AND is_active = 1 ORDER BY date_joined, id')
    .all(actor.id);
  return rows
    .map((row) => userById(realm, row.id))
    .filter((bot): bot is UserRow => bot !== undefined && bot.is_bot === 1)
    .map((bot) => ({
      username: bot.email,
      full_name: bot.full_name,
      api_key: bot.api_key,
      avatar_url: avatarUrl(bot),
      ...botDefaults(realm, botSettings(realm, bot.id)),
    }));
}

/** The public API's bot lookup: unknown or not a bot is "No such bot"; others' bots need admin rights. */
export function checkBotAccess(realm: Realm, actor: UserRow, botId: number): UserRow {
  const bot = userById(realm, botId);
  if (!bot || bot.is_bot === 0 || isSystemBot(realm, botId)) throw errors.noSuchBot();
  if (!canAdministerUser(actor, bot)) throw errors.insufficientPermission();
  return bot;
}

export interface BotUpdate {
  fullName?: string | undefined;
  role?: number | undefined;
  botOwnerId?: number | undefined;
  configData?: Record<string, string> | undefined;
  servicePayloadUrl?: string | undefined;
  serviceInterface: number;
  defaultSendingStream?: string | undefined;
  defaultEventsRegisterStream?: string | undefined;
  defaultAllPublicStreams?: boolean | undefined;
}

function checkNewOwner(realm: Realm, ownerId: number): UserRow {
  const owner = userById(realm, ownerId);
  if (!owner || isSystemBot(realm, ownerId)) throw errors.ownerChangeNoSuchUser();
  if (owner.is_active === 0) throw errors.ownerChangeDeactivated();
  if (owner.is_bot === 1) throw errors.ownerChangeBot();
  return owner;
}

/** An empty name clears a default stream (the public API's PATCH /bots). */
function streamSetting(realm: Realm, actor: UserRow, name: string | undefined): number | null | undefined {
  if (name === undefined) return undefined;
  return name === '' ? null : checkDefaultStream(realm, actor, name);
}

/** PATCH /bots/{bot_id}: each changed field, its events to the bot's administrators. */
export function doUpdateBot(realm: Realm, actor: UserRow, botId: number, update: BotUpdate): Promise<z.input<typeof updatedBotSchema>> {
  checkMemberOrAdmin(actor);
  const bot = checkBotAccess(realm, actor, botId);
  const fullName = update.fullName === undefined ? undefined : checkFullName(update.fullName);
  if (fullName !== undefined && fullName !== bot.full_name) checkBotNameAvailable(realm, fullName);
  if (update.role !== undefined) checkRoleChange(realm, actor, bot, update.role);
  const newOwner = update.botOwnerId === undefined ? undefined : checkNewOwner(realm, update.botOwnerId);
  const sendingStream = streamSetting(realm, actor, update.defaultSendingStream);
  const registerStream = streamSetting(realm, actor, update.defaultEventsRegisterStream);
  const payloadUrl = update.servicePayloadUrl === undefined ? undefined : checkPayloadUrl(update.servicePayloadUrl);
  if (payloadUrl !== undefined) checkInterface(update.serviceInterface);
  return realm.transact((tx) => {
    const r = tx.realm;
    if (fullName !== undefined && fullName !== bot.full_name) renameTxn(tx, bot, fullName);
    if (update.role !== undefined && update.role !== bot.role) changeRoleTxn(tx, storedUser(r, botId), update.role);
    if (newOwner !== undefined && newOwner.id !== bot.bot_owner_id) changeOwnerTxn(tx, storedUser(r, botId), newOwner);
    const settingsChanges: [string, keyof BotDefaults, unknown][] = [];
    if (sendingStream !== undefined) settingsChanges.push(['default_sending_stream_id', 'default_sending_stream', sendingStream]);
    if (registerStream !== undefined)
      settingsChanges.push(['default_events_register_stream_id', 'default_events_register_stream', registerStream]);
    if (update.defaultAllPublicStreams !== undefined) {
      settingsChanges.push(['default_all_public_streams', 'default_all_public_streams', update.defaultAllPublicStreams ? 1 : 0]);
    }
    for (const [column, property, value] of settingsChanges) {
      // `column` comes from the fixed list above, never from the request.
      r.stmt(`UPDATE bot_settings SET ${column} = ? WHERE bot_id = ?`).run(value, botId);
      const defaults = botDefaults(r, botSettings(r, botId));
      publishBotUpdate(tx, botId, { [property]: defaults[property] });
    }
    if (payloadUrl !== undefined) {
      r.stmt('UPDATE bot_settings SET service_base_url = ?, service_interface = ? WHERE bot_id = ?').run(
        payloadUrl,
        update.serviceInterface,
        botId,
      );
    }
    if (update.configData !== undefined)
      r.stmt('UPDATE bot_settings SET config_data = ? WHERE bot_id = ?').run(JSON.stringify(update.configData), botId);
    const current = storedUser(r, botId);
    if (payloadUrl !== undefined || update.configData !== undefined) {
      publishBotUpdate(tx, botId, { services: botServices(current, botSettings(r, botId)) });
    }
    const body: z.input<typeof updatedBotSchema> = {
      full_name: current.full_name,
      avatar_url: avatarUrl(current),
      service_interface: update.serviceInterface,
      service_payload_url: update.servicePayloadUrl ?? null,
      config_data: update.configData ?? null,
      ...botDefaults(r, botSettings(r, botId)),
    };
    const owner = current.bot_owner_id === null ? undefined : userById(r, current.bot_owner_id);
    if (owner) body.bot_owner = owner.email;
    return body;
  });
}

function publishBotUpdate(tx: Txn, botId: number, fields: Record<string, unknown>): void {
  const bot = storedUser(tx.realm, botId);
  tx.publish({ type: 'realm_bot', op: 'update', bot: { user_id: botId, ...fields } }, botAdministratorIds(tx.realm, bot));
}

/**
 * A new owner (the public API's bot owner change): the previous owner, unless an
 * administrator, loses the bot (realm_bot delete); the new one, unless an administrator,
 * gains it (realm_bot add); administrators and the new owner see owner_id change; everyone
 * sees realm_user update bot_owner_id.
 */
function changeOwnerTxn(tx: Txn, bot: UserRow, owner: UserRow): void {
  const r = tx.realm;
  const previous = bot.bot_owner_id === null ? undefined : userById(r, bot.bot_owner_id);
  r.stmt('UPDATE users SET bot_owner_id = ? WHERE id = ?').run(owner.id, bot.id);
  const updated = storedUser(r, bot.id);
  if (previous && previous.is_active === 1 && !isAdminRole(previous.role)) {
    tx.publish({ type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } }, [previous.id]);
  }
  if (!isAdminRole(owner.role)) tx.publish({ type: 'realm_bot', op: 'add', bot: botObject(r, updated) }, [owner.id]);
  tx.publish({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, owner_id: owner.id } }, botAdministratorIds(r, updated));
  tx.publish({ type: 'realm_user', op: 'update', person: { user_id: bot.id, bot_owner_id: owner.id } }, activeUserIds(r));
}

/** DELETE /bots/{bot_id}: deactivates the bot (realm_user remove, realm_bot remove). */
export async function doDeactivateBot(realm: Realm, actor: UserRow, botId: number): Promise<void> {
  checkMemberOrAdmin(actor);
  const bot = checkBotAccess(realm, actor, botId);
  if (bot.is_active === 0) throw errors.userIsDeactivated();
  await realm.transact((tx) => deactivateBotTxn(tx, bot));
  realm.eventQueues.removeUser(botId);
}
