import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { ConfigError, loadConfig, type PlacementSource } from '../config';
import { credentialsIni } from '../realm/bootstrap';
import { creationRefusal } from '../realm/placement';
import { DEFAULT_REALM, REALM_NAME_PATTERN, realmsDir } from '../wire/realm-names';
// The CLI writes realm files with the same code the server uses on its first start.
import { runStorageTask } from '../realm/storage-task';
import { SCALE_USAGE, scaleCommand } from './scale';

const USAGE = `usage: npm run manage -- <command> [options]

commands:
  create-realm --subdomain S --name N --owner-email E [--owner-name F]
      create a realm; prints its owner's credentials in the [api] INI format
  list-realms
      list the realms in the data directory
  backup --to DIR
      write a consistent copy of every realm file into DIR (safe while the server runs)
${SCALE_USAGE}`;

class UsageError extends Error {}
class RealmExistsError extends Error {}

function realmNames(dataDir: string): string[] {
  const dir = realmsDir(dataDir);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sqlite3'))
    .map((f) => f.slice(0, -'.sqlite3'.length))
    .sort();
}

async function createRealmCommand(args: string[], dataDir: string, externalHost: string, placement: PlacementSource): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      subdomain: { type: 'string' },
      name: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-name': { type: 'string' },
    },
    strict: true,
  });
  const subdomain = values.subdomain?.toLowerCase();
  if (!subdomain) throw new UsageError('--subdomain is required');
  if (!REALM_NAME_PATTERN.test(subdomain)) {
    throw new UsageError(`--subdomain '${subdomain}': use lowercase letters, digits and inner hyphens (at most 63)`);
  }
  const misplaced = creationRefusal(placement, subdomain);
  if (misplaced !== null) throw new UsageError(misplaced);
  if (!values.name?.trim()) throw new UsageError('--name is required');
  const ownerEmail = values['owner-email'];
  if (!ownerEmail || !/^[^\s@]+@[^\s@]+$/.test(ownerEmail)) throw new UsageError('--owner-email must be an email address');
  const result = await runStorageTask({
    kind: 'create-realm',
    dataDir,
    subdomain,
    name: values.name.trim(),
    ownerEmail,
    ownerName: values['owner-name']?.trim() || 'Organization Owner',
  });
  if (!result.ok) throw result.error === 'realm-exists' ? new RealmExistsError(result.message) : new Error(result.message);
  if (!result.owner) throw new Error('the new realm has no owner');
  const host = subdomain === DEFAULT_REALM ? externalHost : `${subdomain}.${externalHost}`;
  process.stdout.write(credentialsIni(result.owner.email, result.owner.key, `http://${host}`, result.owner.password));
}

function listRealmsCommand(dataDir: string): void {
  for (const name of realmNames(dataDir)) {
    const db = new Database(path.join(realmsDir(dataDir), `${name}.sqlite3`), { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare('SELECT name, deactivated FROM realm WHERE id = 1').get() as { name: string; deactivated: number };
      process.stdout.write(`${name}\t${row.name}${row.deactivated ? '\t(deactivated)' : ''}\n`);
    } finally {
      db.close();
    }
  }
}

/** SQLite's online backup copies a consistent snapshot while writers go on. */
async function backupCommand(args: string[], dataDir: string): Promise<void> {
  const { values } = parseArgs({ args, options: { to: { type: 'string' } }, strict: true });
  if (!values.to) throw new UsageError('--to DIR is required');
  fs.mkdirSync(values.to, { recursive: true });
  for (const name of realmNames(dataDir)) {
    const db = new Database(path.join(realmsDir(dataDir), `${name}.sqlite3`), { readonly: true, fileMustExist: true });
    try {
      const target = path.join(values.to, `${name}.sqlite3`);
      await db.backup(target);
      process.stdout.write(`${name} -> ${target}\n`);
    } finally {
      db.close();
    }
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  switch (command) {
    case 'create-realm':
      return createRealmCommand(rest, config.dataDir, config.externalHost, config.placement);
    case 'list-realms':
      return listRealmsCommand(config.dataDir);
    case 'backup':
      return backupCommand(rest, config.dataDir);
    case 'proxy-config':
    case 'move-realm':
      return scaleCommand(command, rest, config);
    case undefined:
    case 'help':
    case '--help':
      process.stdout.write(USAGE);
      return;
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError || err instanceof RealmExistsError || err instanceof ConfigError) {
    process.stderr.write(`error: ${err.message}\n`);
    if (err instanceof UsageError) process.stderr.write(`\n${USAGE}`);
    process.exit(2);
  }
  // parseArgs reports unknown options with a TypeError that carries a code.
  if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`error: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  process.stderr.write(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
