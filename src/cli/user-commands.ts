import type { AdminArgs } from '../wire/admin';
import { print, required, runAdmin, UsageError, type Command, type CommandContext } from './command';

/*
 * The account commands (issue 23 "Management CLI"). Each runs in the running server when
 * there is one, so its clients get the same events as for the matching API call.
 */

const ROLES = ['owner', 'administrator', 'moderator', 'member', 'guest'];

interface UserSummary {
  user_id: number;
  email: string;
  full_name?: string;
  role?: string;
  is_bot?: boolean;
  is_active?: boolean;
  api_key?: string;
  password?: string;
}

function roleOption(ctx: CommandContext, needed: boolean): string | undefined {
  const role = ctx.values['role'];
  if (role === undefined) {
    if (needed) throw new UsageError('--role is required');
    return undefined;
  }
  if (typeof role !== 'string' || !ROLES.includes(role)) throw new UsageError(`--role '${String(role)}': use one of ${ROLES.join(', ')}`);
  return role;
}

/** One user: the JSON object itself with --json, else a line and the secrets made. */
function printUser(ctx: CommandContext, verb: string, user: UserSummary): void {
  const described =
    user.role === undefined ? '' : ` (${user.is_bot === true ? 'bot' : user.role}${user.is_active === false ? ', deactivated' : ''})`;
  const lines = [`${verb} user ${user.user_id} ${user.email}${described}`];
  if (user.api_key !== undefined) lines.push(`api_key: ${user.api_key}`);
  if (user.password !== undefined) lines.push(`password: ${user.password}`);
  print(ctx, user, lines.join('\n'));
}

async function userCommand(ctx: CommandContext, command: Parameters<typeof runAdmin>[1], args: AdminArgs, verb: string): Promise<void> {
  const result = await runAdmin(ctx, command, args);
  printUser(ctx, verb, result['user'] as UserSummary);
}

const EMAIL = { email: { type: 'string' } } as const;

export const USER_COMMANDS: Command[] = [
  {
    name: 'create-user',
    synopsis: 'create-user --email E --full-name N [--role ROLE] [--bot] [--password P]',
    summary: 'create an account; prints its user_id, email, api_key (and the password it was given)',
    details: `--role: ${ROLES.join(', ')} (default member). Without --password a random one is made and printed.
--bot makes a generic bot instead, owned by an organization owner; its email is <local part of E>-bot@<realm host>.`,
    options: {
      ...EMAIL,
      'full-name': { type: 'string' },
      role: { type: 'string' },
      bot: { type: 'boolean' },
      password: { type: 'string' },
    },
    run: async (ctx) => {
      const args: AdminArgs = { email: required(ctx, 'email'), 'full-name': required(ctx, 'full-name') };
      const role = roleOption(ctx, false);
      if (role !== undefined) args['role'] = role;
      if (ctx.values['bot'] === true) args['bot'] = true;
      if (typeof ctx.values['password'] === 'string') args['password'] = ctx.values['password'];
      await userCommand(ctx, 'create-user', args, 'created');
    },
  },
  {
    name: 'change-role',
    synopsis: 'change-role --email E --role ROLE',
    summary: `give a user another role (${ROLES.join(', ')}); the only owner keeps theirs`,
    options: { ...EMAIL, role: { type: 'string' } },
    run: (ctx) => userCommand(ctx, 'change-role', { email: required(ctx, 'email'), role: roleOption(ctx, true) as string }, 'changed'),
  },
  {
    name: 'deactivate-user',
    synopsis: 'deactivate-user --email E',
    summary: "deactivate an account (and a person's bots); its clients are told and its event queues end",
    options: EMAIL,
    run: (ctx) => userCommand(ctx, 'deactivate-user', { email: required(ctx, 'email') }, 'deactivated'),
  },
  {
    name: 'reactivate-user',
    synopsis: 'reactivate-user --email E',
    summary: 'reactivate a deactivated account',
    options: EMAIL,
    run: (ctx) => userCommand(ctx, 'reactivate-user', { email: required(ctx, 'email') }, 'reactivated'),
  },
  {
    name: 'reset-api-key',
    synopsis: 'reset-api-key --email E',
    summary: 'give a user a new API key and print it; the old one stops working at once',
    options: EMAIL,
    run: (ctx) => userCommand(ctx, 'reset-api-key', { email: required(ctx, 'email') }, 'new API key for'),
  },
  {
    name: 'change-password',
    synopsis: 'change-password --email E [--password P]',
    summary: "set a user's password (a random one, printed, without --password); their web sessions end",
    options: { ...EMAIL, password: { type: 'string' } },
    run: async (ctx) => {
      const args: AdminArgs = { email: required(ctx, 'email') };
      if (typeof ctx.values['password'] === 'string') args['password'] = ctx.values['password'];
      await userCommand(ctx, 'change-password', args, 'new password for');
    },
  },
  {
    name: 'list-users',
    synopsis: 'list-users',
    summary: "list the realm's accounts: people and bots, deactivated ones too",
    options: {},
    run: async (ctx) => {
      const result = await runAdmin(ctx, 'list-users', {});
      const users = result['users'] as Required<Omit<UserSummary, 'api_key' | 'password'>>[];
      const rows = users.map((u) => [
        String(u.user_id),
        u.email,
        u.full_name,
        u.is_bot ? 'bot' : u.role,
        u.is_active ? 'active' : 'deactivated',
      ]);
      print(ctx, { users }, table(['ID', 'EMAIL', 'NAME', 'ROLE', 'STATUS'], rows));
    },
  },
];

/** Columns padded to their widest cell. */
export function table(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  return all
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
