import fs from 'node:fs';
import type { Database } from 'better-sqlite3';
import { realmFile, realmsDir } from '../../src/wire/realm-names';
import { MIGRATIONS } from '../db/migrations';
import { openRealmDb } from '../db/open';
import { AdminError } from './host';
import type { Progress } from './realm-files';

/*
 * `export-realm` / `import-realm` (issue 23): one realm's data as one JSON file, every table's
 * rows, uploads included (BLOBs in base64). Import writes a NEW realm; export → import →
 * export gives the same tables. What is not exported: saved event queues (clients register
 * again), the search index (rebuilt by the messages table's triggers) and the realm's own
 * name (string_id), which is the importing realm's.
 */

export const EXPORT_FORMAT = 'teamchat-realm-export' as const;
export const EXPORT_FORMAT_VERSION = 1;

type Cell = string | number | null | { base64: string };

interface TableData {
  columns: string[];
  rows: Cell[][];
}

export interface RealmExport {
  format: typeof EXPORT_FORMAT;
  format_version: number;
  schema_version: number;
  realm: string;
  tables: Record<string, TableData>;
  /** sqlite_sequence: the next ID of each AUTOINCREMENT table, never reused after deletions. */
  sequences: Record<string, number>;
}

const NOT_EXPORTED = new Set(['saved_event_queues']);
const REALM_NAME_COLUMN = 'string_id';

interface TableInfo {
  name: string;
  withoutRowid: boolean;
}

/** The tables that hold data, in schema order: not SQLite's own, not virtual ones or their shadows. */
function dataTables(db: Database): TableInfo[] {
  const all = db
    .prepare<[], { name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
    )
    .all();
  const virtual = all.filter((table) => /^CREATE VIRTUAL TABLE/i.test(table.sql)).map((table) => table.name);
  return all
    .filter((table) => !virtual.some((name) => table.name === name || table.name.startsWith(`${name}_`)))
    .filter((table) => !NOT_EXPORTED.has(table.name))
    .map((table) => ({ name: table.name, withoutRowid: /WITHOUT\s+ROWID/i.test(table.sql) }));
}

function columnsOf(db: Database, table: string): { name: string; pk: number }[] {
  return db.prepare<[string], { name: string; pk: number }>('SELECT name, pk FROM pragma_table_info(?) ORDER BY cid').all(table);
}

function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function toCell(value: unknown): Cell {
  if (Buffer.isBuffer(value)) return { base64: value.toString('base64') };
  if (typeof value === 'bigint') return Number(value);
  return value as string | number | null;
}

function fromCell(cell: Cell): unknown {
  return cell !== null && typeof cell === 'object' ? Buffer.from(cell.base64, 'base64') : cell;
}

/** Reads every table of realm `name` on a read-only connection (a consistent snapshot while a server writes). */
export function exportRealm(dataDir: string, name: string, progress?: Progress): RealmExport {
  const file = realmFile(dataDir, name);
  if (!fs.existsSync(file)) throw new AdminError('no-such-realm', `no realm '${name}' in ${dataDir}`);
  const db = openRealmDb(file, { readonly: true });
  try {
    return db.transaction(() => {
      const schemaVersion = db.pragma('user_version', { simple: true }) as number;
      const tables: Record<string, TableData> = {};
      const list = dataTables(db);
      for (const [i, table] of list.entries()) {
        const columns = columnsOf(db, table.name);
        const kept = columns.map((c) => c.name).filter((c) => !(table.name === 'realm' && c === REALM_NAME_COLUMN));
        const order = table.withoutRowid
          ? columns
              .filter((c) => c.pk > 0)
              .sort((a, b) => a.pk - b.pk)
              .map((c) => quoted(c.name))
              .join(', ')
          : 'rowid';
        const rows = db
          .prepare<[], unknown[]>(`SELECT ${kept.map(quoted).join(', ')} FROM ${quoted(table.name)} ORDER BY ${order}`)
          .raw(true)
          .all();
        tables[table.name] = { columns: kept, rows: rows.map((row) => row.map(toCell)) };
        progress?.(i + 1, list.length);
      }
      const sequences = Object.fromEntries(
        db
          .prepare<[], { name: string; seq: number }>('SELECT name, seq FROM sqlite_sequence ORDER BY name')
          .all()
          .map((r) => [r.name, r.seq]),
      );
      return {
        format: EXPORT_FORMAT,
        format_version: EXPORT_FORMAT_VERSION,
        schema_version: schemaVersion,
        realm: name,
        tables,
        sequences,
      };
    })();
  } finally {
    db.close();
  }
}

/** The tables other tables' triggers write to: filled last, so what the triggers did is replaced. */
function triggerTargets(db: Database): Set<string> {
  const triggers = db
    .prepare<[], { tbl_name: string; sql: string }>("SELECT tbl_name, sql FROM sqlite_master WHERE type = 'trigger'")
    .all();
  const targets = new Set<string>();
  for (const trigger of triggers) {
    for (const match of trigger.sql.matchAll(/\b(?:UPDATE|INSERT\s+(?:OR\s+\w+\s+)?INTO|DELETE\s+FROM)\s+["`]?(\w+)/gi)) {
      const target = match[1] as string;
      if (target !== trigger.tbl_name) targets.add(target);
    }
  }
  return targets;
}

function checkExport(data: unknown): RealmExport {
  const candidate = data as Partial<RealmExport> | null;
  if (candidate?.format !== EXPORT_FORMAT || typeof candidate.tables !== 'object' || candidate.tables === null) {
    throw new AdminError('damaged', 'not a realm export (no format or tables)');
  }
  if (candidate.format_version !== EXPORT_FORMAT_VERSION) {
    throw new AdminError(
      'damaged',
      `export format version ${String(candidate.format_version)}; this server reads ${EXPORT_FORMAT_VERSION}`,
    );
  }
  if (candidate.schema_version !== MIGRATIONS.length) {
    throw new AdminError(
      'refused',
      `the export has schema version ${String(candidate.schema_version)}; this server writes ${MIGRATIONS.length} (import it with the server version that made it)`,
    );
  }
  return candidate as RealmExport;
}

/**
 * Writes realm `name` from an export, into a new file built under a temporary name and renamed
 * into place once whole (a running server opens it on its first request). Returns row counts.
 */
export function importRealm(dataDir: string, name: string, data: unknown, progress?: Progress): Record<string, number> {
  const exported = checkExport(data);
  const target = realmFile(dataDir, name);
  if (fs.existsSync(target)) throw new AdminError('refused', `realm '${name}' already exists; import into a new realm`);
  fs.mkdirSync(realmsDir(dataDir), { recursive: true });
  const temp = `${target}.importing-${process.pid}`;
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(temp + suffix, { force: true });
  const db = openRealmDb(temp, { create: true });
  const counts: Record<string, number> = {};
  try {
    // Rows go in table by table, not in dependency order: the foreign keys hold once all are in.
    db.pragma('foreign_keys = OFF');
    const tables = dataTables(db).map((t) => t.name);
    const unknown = Object.keys(exported.tables).filter((table) => !tables.includes(table));
    if (unknown.length > 0) throw new AdminError('damaged', `the export has tables this schema lacks: ${unknown.join(', ')}`);
    const targets = triggerTargets(db);
    const ordered = [...tables.filter((t) => !targets.has(t)), ...tables.filter((t) => targets.has(t))];
    db.transaction(() => {
      for (const table of tables) db.prepare(`DELETE FROM ${quoted(table)}`).run();
      for (const [i, table] of ordered.entries()) {
        const content = exported.tables[table] ?? { columns: [], rows: [] };
        const columns = table === 'realm' ? [...content.columns, REALM_NAME_COLUMN] : content.columns;
        // Rows a trigger wrote while earlier tables filled are replaced by the exported ones.
        if (targets.has(table)) db.prepare(`DELETE FROM ${quoted(table)}`).run();
        if (content.rows.length > 0) {
          const insert = db.prepare(
            `INSERT INTO ${quoted(table)} (${columns.map(quoted).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          );
          for (const row of content.rows) insert.run(...row.map(fromCell), ...(table === 'realm' ? [name] : []));
        }
        counts[table] = content.rows.length;
        progress?.(i + 1, ordered.length);
      }
      db.prepare('DELETE FROM sqlite_sequence').run();
      const sequence = db.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)');
      for (const [table, seq] of Object.entries(exported.sequences)) sequence.run(table, seq);
      const broken = db.pragma('foreign_key_check') as unknown[];
      if (broken.length > 0) throw new AdminError('damaged', `the export's rows break ${broken.length} foreign keys`);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (err) {
    db.close();
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(temp + suffix, { force: true });
    throw err;
  }
  db.close();
  fs.linkSync(temp, target);
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(temp + suffix, { force: true });
  return counts;
}
