import type { AdminArgs } from '../../src/wire/admin';
import { doRegenerateApiKey } from '../actions/api-keys';
import { doCreateBot, doDeactivateBot } from '../actions/bots';
import { doDeactivateUser, doReactivateUser } from '../actions/deactivation';
import { doSetPassword, doSetRealmDeactivated } from '../actions/operator';
import { doUpdateUser } from '../actions/user-roles';
import { doCreateUser } from '../actions/users';
import { ROLE } from '../lib/roles';
import { generateApiKey } from '../lib/secrets';
import { isSystemBot } from '../queries/accounts';
import { BOT_TYPE } from '../queries/bots';
import { userByDeliveryEmail, userByEmail, storedUser, type UserRow } from '../queries/users';
import type { Realm } from '../realm';
import { AdminError } from './host';

/*
 * The CLI's account commands (issue 23 "Management CLI"): each reuses the action behind the
 * matching API route, acting as one of the organization's owners, so clients get the same
 * events as when an owner does it in the app.
 */

/** The CLI's role names (SPEC User.role), by value. */
export const ROLE_NAMES: Readonly<Record<string, number>> = {
  owner: ROLE.OWNER,
  administrator: ROLE.ADMINISTRATOR,
  moderator: ROLE.MODERATOR,
  member: ROLE.MEMBER,
  guest: ROLE.GUEST,
};

function roleName(role: number): string {
  return Object.keys(ROLE_NAMES).find((name) => ROLE_NAMES[name] === role) ?? String(role);
}

function stringArg(args: AdminArgs, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value.trim() === '') throw new AdminError('bad-argument', `--${name} is required`);
  return value.trim();
}

function roleArg(args: AdminArgs): number {
  const name = stringArg(args, 'role');
  const role = ROLE_NAMES[name];
  if (role === undefined) throw new AdminError('bad-argument', `--role '${name}': use one of ${Object.keys(ROLE_NAMES).join(', ')}`);
  return role;
}

/** The account an email names (API email or real one), the server's own bots aside. */
function userNamed(realm: Realm, email: string): UserRow {
  const user = userByDeliveryEmail(realm, email) ?? userByEmail(realm, email);
  if (!user || isSystemBot(realm, user.id)) {
    throw new AdminError('no-such-user', `no user with email '${email}' in realm '${realm.name}'`);
  }
  return user;
}

/**
 * Who the CLI acts as: an active human owner other than `besides` when there is one (so an
 * owner can be changed while another remains), else the first. The actions' own rules (the
 * last owner stays) still apply.
 */
function actingOwner(realm: Realm, besides?: number): UserRow {
  const rows = realm
    .rows<{ id: number }, [number]>('SELECT id FROM users WHERE role = ? AND is_active = 1 AND is_bot = 0 ORDER BY id')
    .all(ROLE.OWNER);
  const chosen = rows.find((row) => row.id !== besides) ?? rows[0];
  if (!chosen) throw new AdminError('refused', `realm '${realm.name}' has no active owner to act as`);
  return storedUser(realm, chosen.id);
}

function userSummary(user: UserRow): Record<string, unknown> {
  return {
    user_id: user.id,
    email: user.delivery_email,
    full_name: user.full_name,
    role: roleName(user.role),
    is_bot: user.is_bot === 1,
    is_active: user.is_active === 1,
  };
}

export async function createUser(realm: Realm, args: AdminArgs): Promise<Record<string, unknown>> {
  const email = stringArg(args, 'email');
  const fullName = stringArg(args, 'full-name');
  const role = args['role'] === undefined ? ROLE.MEMBER : roleArg(args);
  const owner = actingOwner(realm);
  if (args['bot'] === true) {
    if (role !== ROLE.MEMBER) throw new AdminError('bad-argument', '--bot and --role do not go together: bots are members');
    // A bot's email is made from its short name: the local part given, less a "-bot" suffix.
    const shortName = (email.split('@')[0] ?? '').replace(/-bot$/, '');
    const created = await doCreateBot(realm, owner, {
      fullName,
      shortName,
      botType: BOT_TYPE.GENERIC,
      interfaceType: 1,
      configData: {},
    });
    const bot = storedUser(realm, Number(created['user_id']));
    return { user: { ...userSummary(bot), api_key: bot.api_key } };
  }
  const password = typeof args['password'] === 'string' ? args['password'] : generateApiKey(20);
  const userId = await doCreateUser(realm, owner, { email, fullName, password });
  if (role !== ROLE.MEMBER) await doUpdateUser(realm, owner, userId, { role });
  const user = storedUser(realm, userId);
  return { user: { ...userSummary(user), api_key: user.api_key, password } };
}

export async function changeRole(realm: Realm, args: AdminArgs): Promise<Record<string, unknown>> {
  const user = userNamed(realm, stringArg(args, 'email'));
  const role = roleArg(args);
  await doUpdateUser(realm, actingOwner(realm, user.id), user.id, { role });
  return { user: userSummary(storedUser(realm, user.id)) };
}

export async function deactivateUser(realm: Realm, args: AdminArgs): Promise<Record<string, unknown>> {
  const user = userNamed(realm, stringArg(args, 'email'));
  const owner = actingOwner(realm, user.id);
  if (user.is_bot === 1) await doDeactivateBot(realm, owner, user.id);
  else await doDeactivateUser(realm, owner, user.id);
  return { user: userSummary(storedUser(realm, user.id)) };
}

export async function reactivateUser(realm: Realm, args: AdminArgs): Promise<Record<string, unknown>> {
  const user = userNamed(realm, stringArg(args, 'email'));
  await doReactivateUser(realm, actingOwner(realm, user.id), user.id);
  return { user: userSummary(storedUser(realm, user.id)) };
}

export async function resetApiKey(realm: Realm, args: AdminArgs): Promise<Record<string, unknown>> {
  const user = userNamed(realm, stringArg(args, 'email'));
  const apiKey = await doRegenerateApiKey(realm, user);
  return { user: { user_id: user.id, email: user.delivery_email, api_key: apiKey } };
}

export async function changePassword(realm: Realm, args: AdminArgs): Promise<Record<string, unknown>> {
  const user = userNamed(realm, stringArg(args, 'email'));
  const password = typeof args['password'] === 'string' ? args['password'] : generateApiKey(20);
  await doSetPassword(realm, user, password);
  return { user: { user_id: user.id, email: user.delivery_email, password } };
}

export function listUsers(realm: Realm): Record<string, unknown> {
  const rows = realm.rows<{ id: number }, []>('SELECT id FROM users WHERE is_system_bot = 0 ORDER BY id').all();
  return { users: rows.map((row) => userSummary(storedUser(realm, row.id))) };
}

export async function setRealmDeactivated(realm: Realm, deactivated: boolean): Promise<Record<string, unknown>> {
  await doSetRealmDeactivated(realm, deactivated);
  return { realm: realm.name, deactivated };
}
