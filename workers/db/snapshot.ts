import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';

// Not open.ts's Db: open.ts takes a snapshot before migrating, and imports this file.
type Db = Database.Database;

/**
 * Snapshots of a realm file, in `<dataDir>/backups/<realm>/` (src/wire/realm-names.ts
 * snapshotsDir): the periodic ones (`snapshot-<start>.sqlite3`, pruned to the newest few) and
 * the one taken before a schema migration (`pre-migration-v<version>-<start>.sqlite3`, kept
 * until an administrator deletes it). `<start>` is when the copy began, in UTC, so every
 * write acknowledged before that moment is in it; names sort in time order.
 */

const PERIODIC_PREFIX = 'snapshot-';
const SUFFIX = '.sqlite3';
// Pages copied per step of the online backup; one step is one short turn of the shard's loop.
const PAGES_PER_STEP = 64;

/** `2026-11-25T18:30:00.123Z` → `20261125T183000123Z`: no characters a file system may refuse. */
function stamp(startedAt: Date): string {
  return startedAt.toISOString().replace(/[-:.]/g, '');
}

/** When a snapshot began, read back from its name; null for a name that is not a snapshot's. */
export function snapshotStart(fileName: string): Date | null {
  const match = /(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z\.sqlite3$/.exec(fileName);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, ms] = match;
  return new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}.${ms}Z`);
}

/**
 * Copies the realm into a new periodic snapshot with SQLite's online backup, a few pages per
 * turn of the event loop, so the shard goes on serving meanwhile. The copy is made through the
 * realm's own connection: its writes during the copy are carried into it (they would restart a
 * copy made through another connection), so it ends consistent and holds every commit made
 * before it began. Written under a temporary name and renamed once complete.
 */
export async function writeSnapshot(db: Db, dir: string, startedAt: Date): Promise<string> {
  await fs.promises.mkdir(dir, { recursive: true });
  const target = path.join(dir, `${PERIODIC_PREFIX}${stamp(startedAt)}${SUFFIX}`);
  const partial = `${target}.partial`;
  try {
    await db.backup(partial, { progress: () => PAGES_PER_STEP });
    await fs.promises.rename(partial, target);
  } catch (err) {
    await fs.promises.rm(partial, { force: true });
    throw err;
  }
  return target;
}

/**
 * Deletes all but the newest `keep` periodic snapshots, and the partial copies a crash left
 * behind. Called between two runs of the realm's snapshot actor, so no copy is under way.
 */
export async function pruneSnapshots(dir: string, keep: number): Promise<void> {
  const names = await fs.promises.readdir(dir);
  const complete = names.filter((name) => name.startsWith(PERIODIC_PREFIX) && name.endsWith(SUFFIX)).sort();
  const partial = names.filter((name) => name.startsWith(PERIODIC_PREFIX) && name.endsWith(`${SUFFIX}.partial`));
  const old = [...complete.slice(0, Math.max(0, complete.length - keep)), ...partial];
  await Promise.all(old.map((name) => fs.promises.rm(path.join(dir, name), { force: true })));
}

/**
 * Copies a realm file about to be migrated, synchronously (the migration that follows is too,
 * and the file is not served until both are done): if the migration goes wrong, or the new
 * server is rolled back, this copy is the realm as the old server left it.
 */
export function snapshotBeforeMigration(db: Db, dir: string, version: number, startedAt: Date): string {
  fs.mkdirSync(dir, { recursive: true });
  const target = path.join(dir, `pre-migration-v${version}-${stamp(startedAt)}${SUFFIX}`);
  db.prepare('VACUUM INTO ?').run(target);
  return target;
}
