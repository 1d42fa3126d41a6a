import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { credentialsIni } from '../realm/bootstrap';
import { creationRefusal } from '../realm/placement';
import { DEFAULT_REALM, REALM_NAME_PATTERN, realmFile, realmsDir } from '../wire/realm-names';
// The CLI writes realm files with the same code the server uses on its first start.
import { runStorageTask } from '../realm/storage-task';
import { CommandFailed, print, required, runAdmin, runFileTask, UsageError, type Command, type CommandContext } from './command';
import { ProgressBar } from './progress';
import { table } from './user-commands';

/** The realm create-realm was asked for exists already: exit status 2, as before. */
const REALM_EXISTS_STATUS = 2;

export function realmNames(dataDir: string): string[] {
  const dir = realmsDir(dataDir);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sqlite3'))
    .map((f) => f.slice(0, -'.sqlite3'.length))
    .sort();
}

/** --realm R names one realm (which must exist); without it, every realm. */
function chosenRealms(ctx: CommandContext): string[] {
  if (!ctx.realmGiven) return realmNames(ctx.dataDir);
  if (!fs.existsSync(realmFile(ctx.dataDir, ctx.realm))) throw new CommandFailed(`no realm '${ctx.realm}' in ${ctx.dataDir}`);
  return [ctx.realm];
}

async function createRealm(ctx: CommandContext): Promise<void> {
  const subdomain = required(ctx, 'subdomain').toLowerCase();
  if (!REALM_NAME_PATTERN.test(subdomain)) {
    throw new UsageError(`--subdomain '${subdomain}': use lowercase letters, digits and inner hyphens (at most 63)`);
  }
  const misplaced = creationRefusal(ctx.placement, subdomain);
  if (misplaced !== null) throw new UsageError(misplaced);
  const name = required(ctx, 'name');
  const ownerEmail = ctx.values['owner-email'];
  if (typeof ownerEmail !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(ownerEmail))
    throw new UsageError('--owner-email must be an email address');
  const ownerName = typeof ctx.values['owner-name'] === 'string' ? ctx.values['owner-name'].trim() : '';
  const result = await runStorageTask({
    kind: 'create-realm',
    dataDir: ctx.dataDir,
    subdomain,
    name,
    ownerEmail,
    ownerName: ownerName || 'Organization Owner',
  });
  if (!result.ok) throw new CommandFailed(result.message, result.error === 'realm-exists' ? REALM_EXISTS_STATUS : 1);
  if (!result.owner) throw new CommandFailed('the new realm has no owner');
  const host = subdomain === DEFAULT_REALM ? ctx.externalHost : `${subdomain}.${ctx.externalHost}`;
  const owner = result.owner;
  print(
    ctx,
    { realm: subdomain, url: `http://${host}`, email: owner.email, api_key: owner.key, password: owner.password },
    credentialsIni(owner.email, owner.key, `http://${host}`, owner.password),
  );
}

function listRealms(ctx: CommandContext): void {
  const realms = realmNames(ctx.dataDir).map((name) => {
    const db = new Database(realmFile(ctx.dataDir, name), { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare<[], { name: string; deactivated: number }>('SELECT name, deactivated FROM realm WHERE id = 1').get();
      if (!row) throw new Error(`${realmFile(ctx.dataDir, name)} has no realm row`);
      return { realm: name, name: row.name, deactivated: row.deactivated === 1 };
    } finally {
      db.close();
    }
  });
  print(ctx, { realms }, realms.map((r) => `${r.realm}\t${r.name}${r.deactivated ? '\t(deactivated)' : ''}`).join('\n'));
}

/** SQLite's online backup copies a consistent snapshot while writers go on. */
async function backup(ctx: CommandContext): Promise<void> {
  const to = required(ctx, 'to');
  fs.mkdirSync(to, { recursive: true });
  const backups: { realm: string; file: string }[] = [];
  for (const name of chosenRealms(ctx)) {
    const db = new Database(realmFile(ctx.dataDir, name), { readonly: true, fileMustExist: true });
    const bar = new ProgressBar(`backup ${name}`);
    try {
      const target = path.join(to, `${name}.sqlite3`);
      await db.backup(target, {
        progress: ({ totalPages, remainingPages }) => {
          bar.update(totalPages - remainingPages, totalPages);
          return 1024;
        },
      });
      // SQLite reports before each step, so the last report says what was left before it.
      bar.update(1, 1);
      backups.push({ realm: name, file: path.resolve(target) });
    } finally {
      bar.done();
      db.close();
    }
  }
  print(ctx, { backups }, backups.map((b) => `${b.realm} -> ${b.file}`).join('\n'));
}

interface FileCheck {
  realm: string;
  ok: boolean;
  schema_version: number | null;
  server_schema_version: number;
  problem: string | null;
}

async function check(ctx: CommandContext): Promise<void> {
  const result = await runFileTask(ctx, { kind: 'check' }, 'check');
  const only = ctx.realmGiven ? chosenRealms(ctx) : null;
  const realms = (result['realms'] as FileCheck[]).filter((r) => only === null || only.includes(r.realm));
  const rows = realms.map((r) => [
    r.realm,
    r.ok ? 'ok' : 'PROBLEM',
    `schema ${r.schema_version ?? '?'}/${r.server_schema_version}`,
    r.problem ?? '',
  ]);
  const ok = realms.every((r) => r.ok);
  print(ctx, { ok, realms }, table(['REALM', 'STATUS', 'SCHEMA', 'PROBLEM'], rows));
  const bad = realms.filter((r) => !r.ok).length;
  if (bad > 0) throw new CommandFailed(`${bad} of ${realms.length} realm files failed the check`);
}

async function restore(ctx: CommandContext): Promise<void> {
  const file = path.resolve(ctx.positionals[0] as string);
  const args = ctx.values['force'] === true ? { file, force: true } : { file };
  const result = await runAdmin(ctx, 'restore', args, `restore ${ctx.realm}`);
  print(
    ctx,
    result,
    `restored ${ctx.realm} from ${file}${result['previous_file'] ? `\nthe replaced file is kept as ${String(result['previous_file'])}` : ''}`,
  );
}

async function exportRealm(ctx: CommandContext): Promise<void> {
  const to = path.resolve(required(ctx, 'to'));
  const result = await runFileTask(ctx, { kind: 'export', realm: ctx.realm, to }, `export ${ctx.realm}`);
  print(ctx, result, `exported ${ctx.realm} to ${to}: ${String(result['rows'])} rows in ${String(result['tables'])} tables`);
}

async function importRealm(ctx: CommandContext): Promise<void> {
  if (!ctx.realmGiven) throw new UsageError('import-realm: --realm is required (the new realm to create)');
  const from = path.resolve(ctx.positionals[0] as string);
  const result = await runFileTask(ctx, { kind: 'import', realm: ctx.realm, from }, `import ${ctx.realm}`);
  print(ctx, result, `imported ${from} as ${ctx.realm}: ${String(result['rows'])} rows in ${String(result['tables'])} tables`);
}

async function setRealmActive(ctx: CommandContext, deactivate: boolean): Promise<void> {
  const result = await runAdmin(ctx, deactivate ? 'deactivate-realm' : 'reactivate-realm', {});
  print(ctx, result, `${deactivate ? 'deactivated' : 'reactivated'} realm ${ctx.realm}`);
}

export const REALM_COMMANDS: Command[] = [
  {
    name: 'create-realm',
    synopsis: 'create-realm --subdomain S --name N --owner-email E [--owner-name F]',
    summary: "create a realm; prints its owner's credentials in the [api] INI format",
    options: {
      subdomain: { type: 'string' },
      name: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-name': { type: 'string' },
    },
    run: createRealm,
  },
  { name: 'list-realms', synopsis: 'list-realms', summary: 'list the realms in the data directory', options: {}, run: listRealms },
  {
    name: 'check',
    synopsis: 'check',
    summary: 'integrity check and schema version of every realm file (of one with --realm); exit status 1 on any problem',
    details: 'Safe while the server runs: it reads a consistent snapshot.',
    options: {},
    run: check,
  },
  {
    name: 'backup',
    synopsis: 'backup --to DIR',
    summary: 'write a consistent copy of every realm file (of one with --realm) into DIR, one file per realm',
    details: 'Safe while the server runs (SQLite online backup).',
    options: { to: { type: 'string' } },
    run: backup,
  },
  {
    name: 'restore',
    synopsis: 'restore FILE [--force]',
    summary: "replace the realm's file with a backup, after checking its integrity and schema version",
    details: `A damaged file changes nothing. While the server serves the realm, --force is needed: the server
stops serving it, swaps the file in and serves it again; its clients must register again
(BAD_EVENT_QUEUE_ID). The replaced file is kept beside the new one (.before-restore-<time>).`,
    options: { force: { type: 'boolean' } },
    positionals: 1,
    run: restore,
  },
  {
    name: 'export-realm',
    synopsis: 'export-realm --to FILE',
    summary: "write the realm's data, uploads included, as one JSON file",
    options: { to: { type: 'string' } },
    run: exportRealm,
  },
  {
    name: 'import-realm',
    synopsis: 'import-realm FILE --realm NEW',
    summary: 'create realm NEW from an export-realm file (same schema version); export -> import -> export gives the same data',
    options: {},
    positionals: 1,
    run: importRealm,
  },
  {
    name: 'deactivate-realm',
    synopsis: 'deactivate-realm',
    summary: 'deactivate the realm: its clients are told, every request then gets REALM_DEACTIVATED',
    options: {},
    run: (ctx) => setRealmActive(ctx, true),
  },
  {
    name: 'reactivate-realm',
    synopsis: 'reactivate-realm',
    summary: 'reactivate a deactivated realm',
    options: {},
    run: (ctx) => setRealmActive(ctx, false),
  },
];
