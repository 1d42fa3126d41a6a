import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MIGRATIONS } from '../../workers/db/migrations';
import { ROLE, systemGroupNameForRole } from '../../workers/lib/roles';
import { realmFile } from '../../src/wire/realm-names';
import { startChatServer } from './processes';

export const SEEDED_USERS = Number(process.env['BENCH_SEED_USERS'] ?? 1_000);
const MEMBERS_GROUP = systemGroupNameForRole(ROLE.MEMBER) ?? '';

/** A realm of SEEDED_USERS users (bench/get-users.ts), kept in the temp dir between runs. */
export function seededUsersDataDir(): Promise<string> {
  return seededRealmDir(`teamchat-bench-users-${SEEDED_USERS}`, SEEDED_USERS, 'seeded-user');
}

/**
 * A realm of `users` users (the owner and members named `<prefix>-<i>@example.com`), written by
 * bulk insert straight into the realm file before the server starts: POST /users hashes a
 * password and publishes events per user. Each member row is what POST /users writes (users
 * row, role group membership), with no password and a random key. `more` then adds what the
 * scenario needs (streams, subscriptions) in the same transaction. Kept in the temp dir under
 * `dirName` between runs; re-seeded when the schema, the size or `version` changed.
 */
export async function seededRealmDir(
  dirName: string,
  users: number,
  prefix: string,
  more?: (db: Database.Database, memberIds: number[]) => void,
  version = 1,
): Promise<string> {
  const dataDir = path.join(os.tmpdir(), dirName);
  const marker = path.join(dataDir, 'seeded.json');
  const want = JSON.stringify({ schema: MIGRATIONS.length, users, version });
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === want) return dataDir;
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  // The server creates the default realm and its owner on its first start.
  const server = await startChatServer({}, dataDir);
  await server.stop();
  const db = new Database(realmFile(dataDir, 'default'));
  db.pragma('journal_mode = WAL');
  // A history of millions of rows (seed-people.ts) spills to the WAL mid-transaction with
  // SQLite's default 2 MB page cache.
  db.pragma('cache_size = -1048576');
  const existing = (db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
  const group = db.prepare('SELECT id FROM user_groups WHERE name = ? COLLATE NOCASE AND is_system_group = 1').get(MEMBERS_GROUP) as
    { id: number } | undefined;
  if (!group) throw new Error(`no system group ${MEMBERS_GROUP}: the seeding helper is out of date`);
  const insertUser = db.prepare(
    `INSERT INTO users (email, delivery_email, full_name, api_key, password_hash, role, date_joined, settings)
     VALUES (?, ?, ?, ?, NULL, ?, ?, '{}')`,
  );
  const insertMember = db.prepare('INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)');
  const now = Math.floor(Date.now() / 1000);
  db.transaction(() => {
    const memberIds: number[] = [];
    for (let i = existing; i < users; i++) {
      const email = `${prefix}-${i}@example.com`;
      const id = Number(insertUser.run(email, email, `${prefix} ${i}`, randomBytes(16).toString('hex'), ROLE.MEMBER, now).lastInsertRowid);
      insertMember.run(group.id, id);
      memberIds.push(id);
    }
    more?.(db, memberIds);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  fs.writeFileSync(marker, want);
  return dataDir;
}
