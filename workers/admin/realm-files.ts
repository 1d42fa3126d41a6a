import fs from 'node:fs';
import Database from 'better-sqlite3';
import { realmFile } from '../../src/wire/realm-names';
import { MIGRATIONS } from '../db/migrations';
import { openRealmDb } from '../db/open';

/** What `check` and `restore` learn of a realm file before trusting it. */
export interface RealmFileCheck {
  file: string;
  ok: boolean;
  /** PRAGMA user_version: the migrations applied (db/migrations.ts). */
  schema_version: number | null;
  /** The schema version this server writes. */
  server_schema_version: number;
  /** What is wrong, when not ok: the integrity check's first lines, a too-new schema, not a realm. */
  problem: string | null;
}

// integrity_check stops after this many problems; a few lines say enough.
const MAX_INTEGRITY_LINES = 5;

/**
 * SQLite's integrity_check (every page, index and constraint) and the schema version, on a
 * read-only connection: safe on a file a running server writes (WAL readers see a snapshot).
 */
export function checkRealmFile(file: string): RealmFileCheck {
  const result: RealmFileCheck = { file, ok: false, schema_version: null, server_schema_version: MIGRATIONS.length, problem: null };
  if (!fs.existsSync(file)) return { ...result, problem: 'no such file' };
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const version = db.pragma('user_version', { simple: true }) as number;
    result.schema_version = version;
    const lines = (db.pragma(`integrity_check(${MAX_INTEGRITY_LINES})`) as { integrity_check: string }[]).map((row) => row.integrity_check);
    if (lines.length !== 1 || lines[0] !== 'ok') return { ...result, problem: `integrity check failed: ${lines.join('; ')}` };
    if (version > MIGRATIONS.length) {
      return { ...result, problem: `schema version ${version} is newer than this server's ${MIGRATIONS.length}; upgrade the server` };
    }
    if (version === 0) return { ...result, problem: 'not a realm file (no schema)' };
    const realm = db.prepare('SELECT string_id FROM realm WHERE id = 1').get();
    if (realm === undefined) return { ...result, problem: 'not a realm file (no realm row)' };
    return { ...result, ok: true };
  } catch (err) {
    // A file that is not a database at all, or whose header is damaged, fails to open or read.
    return { ...result, problem: err instanceof Error ? err.message : String(err) };
  } finally {
    db?.close();
  }
}

export type Progress = (done: number, total: number) => void;

/**
 * Puts a copy of `source` in place of realm `name`'s file (its owner has closed it). The copy
 * is made with SQLite's backup API under a temporary name, brought to this server's schema,
 * emptied of saved event queues (clients of the old file register again: BAD_EVENT_QUEUE_ID)
 * and renamed into place; the file it replaces is kept beside it. Returns that file's name.
 */
export async function swapInRealmFile(dataDir: string, name: string, source: string, progress?: Progress): Promise<string | null> {
  const target = realmFile(dataDir, name);
  const temp = `${target}.restoring-${process.pid}`;
  removeWithSidecars(temp);
  const from = new Database(source, { readonly: true, fileMustExist: true });
  try {
    await from.backup(temp, {
      progress: ({ totalPages, remainingPages }) => {
        progress?.(totalPages - remainingPages, totalPages);
        // Pages per step: large enough to be quick, small enough for the shard to keep serving.
        return 1024;
      },
    });
    // SQLite reports before each step, so the last report says what was left before it.
    progress?.(1, 1);
  } catch (err) {
    removeWithSidecars(temp);
    throw err;
  } finally {
    from.close();
  }
  const copy = openRealmDb(temp);
  try {
    copy.prepare('DELETE FROM saved_event_queues').run();
    // A backup of another realm may be restored under this name (a move between servers).
    copy.prepare('UPDATE realm SET string_id = ? WHERE id = 1').run(name);
    copy.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    copy.close();
  }
  let previous: string | null = null;
  if (fs.existsSync(target)) {
    previous = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(target, previous);
    for (const suffix of ['-wal', '-shm']) if (fs.existsSync(target + suffix)) fs.renameSync(target + suffix, previous + suffix);
  }
  fs.renameSync(temp, target);
  removeWithSidecars(temp);
  return previous;
}

function removeWithSidecars(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
}
