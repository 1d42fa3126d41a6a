import fs from 'node:fs';
import { subscriptionColor } from '../lib/colors';
import { ROLE, NOBODY_GROUP, SYSTEM_GROUPS, systemGroupNameForRole } from '../lib/roles';
import { generateApiKey, hashPassword } from '../lib/secrets';
import { realmFile, realmsDir } from '../../src/wire/realm-names';
import { openRealmDb, type Db } from './open';

export interface NewRealm {
  subdomain: string;
  name: string;
  ownerEmail: string;
  ownerName: string;
  /** Generated when absent. */
  ownerPassword?: string;
}

export interface CreatedRealm {
  subdomain: string;
  ownerId: number;
  ownerEmail: string;
  ownerApiKey: string;
  ownerPassword: string;
  file: string;
}

export class RealmExistsError extends Error {}

export const DEFAULT_STREAM_NAME = 'general';
// `.invalid` (RFC 2606): the bot has no mailbox.
export const NOTIFICATION_BOT_EMAIL = 'notification-bot@teamchat.invalid';

/**
 * Writes a complete new realm file. It is built under a temporary name and renamed into
 * place once closed, so a running server never opens a half-made realm.
 */
export async function createRealm(dataDir: string, spec: NewRealm): Promise<CreatedRealm> {
  const file = realmFile(dataDir, spec.subdomain);
  if (fs.existsSync(file)) throw new RealmExistsError(`realm '${spec.subdomain}' already exists (${file})`);
  fs.mkdirSync(realmsDir(dataDir), { recursive: true });
  const ownerPassword = spec.ownerPassword ?? generateApiKey(20);
  const passwordHash = await hashPassword(ownerPassword);
  const ownerApiKey = generateApiKey();

  const temp = `${file}.creating-${process.pid}`;
  const db = openRealmDb(temp, { create: true });
  let ownerId: number;
  try {
    ownerId = db.transaction(() => seedRealm(db, spec, ownerApiKey, passwordHash))();
    // Fold the WAL into the main file so the renamed file stands alone.
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  try {
    fs.linkSync(temp, file); // fails if the realm appeared meanwhile, unlike rename
  } catch (err) {
    fs.rmSync(temp, { force: true });
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new RealmExistsError(`realm '${spec.subdomain}' already exists`);
    throw err;
  }
  fs.rmSync(temp, { force: true });
  for (const suffix of ['-wal', '-shm']) fs.rmSync(temp + suffix, { force: true });
  return { subdomain: spec.subdomain, ownerId, ownerEmail: spec.ownerEmail, ownerApiKey, ownerPassword, file };
}

function seedRealm(db: Db, spec: NewRealm, apiKey: string, passwordHash: string): number {
  const now = Math.floor(Date.now() / 1000);
  db.prepare('INSERT INTO realm (id, string_id, name, date_created) VALUES (1, ?, ?, ?)').run(spec.subdomain, spec.name, now);

  const insertGroup = db.prepare('INSERT INTO user_groups (name, description, is_system_group) VALUES (?, ?, 1)');
  const groupIds = new Map<string, number>();
  for (const group of [...SYSTEM_GROUPS, NOBODY_GROUP]) {
    groupIds.set(group.name, Number(insertGroup.run(group.name, group.description).lastInsertRowid));
  }
  const addSubgroup = db.prepare('INSERT INTO user_group_subgroups (group_id, subgroup_id) VALUES (?, ?)');
  for (let i = 1; i < SYSTEM_GROUPS.length; i++) {
    const outer = SYSTEM_GROUPS[i]?.name as string;
    const inner = SYSTEM_GROUPS[i - 1]?.name as string;
    addSubgroup.run(groupIds.get(outer), groupIds.get(inner));
  }

  const ownerId = Number(
    db
      .prepare(
        `INSERT INTO users (email, delivery_email, full_name, api_key, password_hash, role, date_joined)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(spec.ownerEmail, spec.ownerEmail, spec.ownerName, apiKey, passwordHash, ROLE.OWNER, now).lastInsertRowid,
  );
  const ownerGroup = systemGroupNameForRole(ROLE.OWNER) as string;
  db.prepare('INSERT INTO user_group_members (group_id, user_id) VALUES (?, ?)').run(groupIds.get(ownerGroup), ownerId);

  const recipientId = Number(db.prepare('INSERT INTO recipients (kind) VALUES (2)').run().lastInsertRowid);
  const streamId = Number(
    db
      .prepare(
        `INSERT INTO streams (name, recipient_id, description, rendered_description, date_created,
           can_remove_subscribers_group_id, is_default)
         VALUES (?, ?, ?, ?, ?, ?, 1)`,
      )
      .run(
        DEFAULT_STREAM_NAME,
        recipientId,
        'Everyone is added to this stream by default.',
        '<p>Everyone is added to this stream by default.</p>',
        now,
        groupIds.get('@role:administrators'),
      ).lastInsertRowid,
  );
  db.prepare('INSERT INTO subscriptions (user_id, stream_id, color) VALUES (?, ?, ?)').run(ownerId, streamId, subscriptionColor(0));
  db.prepare('UPDATE realm SET notifications_stream_id = ?').run(streamId);
  // The bot that posts the server's own notices; nobody logs in as it (its key is never shown).
  db.prepare(
    `INSERT INTO users (email, delivery_email, full_name, api_key, role, is_bot, bot_type, is_system_bot, date_joined)
     VALUES (?, ?, 'Notification Bot', ?, ?, 1, 1, 1, ?)`,
  ).run(NOTIFICATION_BOT_EMAIL, NOTIFICATION_BOT_EMAIL, generateApiKey(), ROLE.MEMBER, now);
  return ownerId;
}
