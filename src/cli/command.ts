import { parseArgs } from 'node:util';
import type { PlacementSource } from '../config';
import type { AdminArgs, AdminCommand, AdminResult } from '../wire/admin';
import { DEFAULT_REALM, REALM_NAME_PATTERN } from '../wire/realm-names';
import { callAdmin, NoServerError } from './admin-client';
import { runOfflineTask } from './offline-task';

/** A bad command line: exit status 2. */
export class UsageError extends Error {}

/** A command that ran and failed (unknown user, damaged file, refused change): exit status 1 unless said. */
export class CommandFailed extends Error {
  constructor(
    message: string,
    readonly exitStatus = 1,
  ) {
    super(message);
  }
}

export type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

export interface CommandContext {
  dataDir: string;
  externalHost: string;
  /** Which realms this node may hold (README "Scaling out"). */
  placement: PlacementSource;
  /** --realm, or the default realm; `realmGiven` says whether it was given. */
  realm: string;
  realmGiven: boolean;
  json: boolean;
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export interface Command {
  name: string;
  /** The command line's shape, e.g. `restore FILE [--force]`. */
  synopsis: string;
  summary: string;
  /** More lines for `<command> --help`. */
  details?: string;
  options: OptionSpec;
  /** How many positional arguments it takes (all required). */
  positionals?: number;
  run(ctx: CommandContext): Promise<void> | void;
}

const COMMON_OPTIONS: OptionSpec = { realm: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } };

export function commandHelp(command: Command): string {
  const lines = [`usage: npm run manage -- ${command.synopsis} [--realm R] [--json]`, '', command.summary];
  if (command.details) lines.push('', command.details);
  return `${lines.join('\n')}\n`;
}

/** Parses a command's arguments; null when `--help` asked for its help (printed already). */
export function parseCommand(
  command: Command,
  args: string[],
  config: { dataDir: string; externalHost: string; placement: PlacementSource },
): CommandContext | null {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...COMMON_OPTIONS, ...command.options }, strict: true, allowPositionals: true });
  } catch (err) {
    // parseArgs's own messages name the option; its advice about '--' does not apply here.
    throw new UsageError(`${command.name}: ${(err instanceof Error ? err.message : String(err)).split('. To specify')[0] ?? ''}`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values['help'] === true) {
    process.stdout.write(commandHelp(command));
    return null;
  }
  const expected = command.positionals ?? 0;
  if (parsed.positionals.length > expected) throw new UsageError(`${command.name}: unexpected argument '${parsed.positionals[expected]}'`);
  if (parsed.positionals.length < expected) throw new UsageError(`${command.name}: missing argument (${command.synopsis})`);
  const realm = typeof values['realm'] === 'string' ? values['realm'] : DEFAULT_REALM;
  if (!REALM_NAME_PATTERN.test(realm))
    throw new UsageError(`--realm '${realm}': not a realm name (lowercase letters, digits, inner hyphens)`);
  return {
    ...config,
    realm,
    realmGiven: typeof values['realm'] === 'string',
    json: values['json'] === true,
    values,
    positionals: parsed.positionals,
  };
}

/** A required string option's value. */
export function required(ctx: CommandContext, name: string): string {
  const value = ctx.values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

/** The answer as one JSON object with --json, else as text. */
export function print(ctx: CommandContext, json: unknown, text: string): void {
  process.stdout.write(ctx.json ? `${JSON.stringify(json)}\n` : text.endsWith('\n') || text === '' ? text : `${text}\n`);
}

function failure(result: Extract<AdminResult, { ok: false }>): CommandFailed {
  return new CommandFailed(result.message, result.code === 'bad-argument' ? 2 : 1);
}

/**
 * Runs an admin command in the running server through its admin socket, so its clients hear
 * of the change; with no server running, on the realm file in a thread of the CLI.
 */
export async function runAdmin(
  ctx: CommandContext,
  command: AdminCommand,
  args: AdminArgs,
  label?: string,
): Promise<Record<string, unknown>> {
  let result: AdminResult;
  try {
    result = await callAdmin(ctx.dataDir, command, ctx.realm, args);
  } catch (err) {
    if (!(err instanceof NoServerError)) throw err;
    result = await runOfflineTask(ctx.dataDir, ctx.externalHost, { kind: 'command', request: { command, realm: ctx.realm, args } }, label);
  }
  if (!result.ok) throw failure(result);
  return result.result;
}

/** A file task (check, export, import) in a thread of the CLI, server or not. */
export async function runFileTask(
  ctx: CommandContext,
  task: Parameters<typeof runOfflineTask>[2],
  label: string,
): Promise<Record<string, unknown>> {
  const result = await runOfflineTask(ctx.dataDir, ctx.externalHost, task, label);
  if (!result.ok) throw failure(result);
  return result.result;
}
