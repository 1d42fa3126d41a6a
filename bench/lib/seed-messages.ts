import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MIGRATIONS } from '../../workers/db/migrations';
import { realmFile } from '../../src/wire/realm-names';
import { startChatServer } from './processes';

export const SEEDED_MESSAGES = Number(process.env['BENCH_SEED_MESSAGES'] ?? 1_000_000);
export const STREAMS = 10;
export const TOPICS_PER_STREAM = 100;
const BATCH = 50_000;

const WORDS = (
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec ' +
  'romeo sierra tango uniform victor whiskey xray yankee zulu deploy release backup server client latency ' +
  'database index query cache thread worker stream topic message review design budget meeting coffee lunch'
).split(' ');

/**
 * A realm with SEEDED_MESSAGES messages in STREAMS public streams × TOPICS_PER_STREAM topics,
 * all sent by the owner (who has a user_messages row for each), written by bulk insert straight
 * into the realm file. The data directory is kept in the temp dir between runs and re-seeded
 * only when the schema or the size changed: seeding a million messages takes minutes.
 */
export async function seededDataDir(): Promise<string> {
  const dataDir = path.join(os.tmpdir(), `teamchat-bench-seeded-${SEEDED_MESSAGES}`);
  const marker = path.join(dataDir, 'seeded.json');
  const want = JSON.stringify({ schema: MIGRATIONS.length, messages: SEEDED_MESSAGES });
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === want) return dataDir;
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  // The server creates the default realm and its owner on its first start.
  const server = await startChatServer({}, dataDir);
  await server.stop();
  const started = Date.now();
  const db = new Database(realmFile(dataDir, 'default'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF'); // a bench fixture: rebuilt from scratch if a run is cut off
  const owner = (db.prepare('SELECT id FROM users WHERE role = 100 ORDER BY id LIMIT 1').get() as { id: number }).id;
  const groupId = (db.prepare('SELECT id FROM user_groups ORDER BY id LIMIT 1').get() as { id: number }).id;
  const streams: { id: number; recipientId: number }[] = [];
  db.transaction(() => {
    for (let s = 0; s < STREAMS; s++) {
      const recipientId = Number(db.prepare('INSERT INTO recipients (kind) VALUES (2)').run().lastInsertRowid);
      const id = Number(
        db
          .prepare(`INSERT INTO streams (name, recipient_id, date_created, can_remove_subscribers_group_id) VALUES (?, ?, ?, ?)`)
          .run(`stream-${s}`, recipientId, Math.floor(Date.now() / 1000), groupId).lastInsertRowid,
      );
      db.prepare(`INSERT INTO subscriptions (user_id, stream_id, color) VALUES (?, ?, '#76ce90')`).run(owner, id);
      streams.push({ id, recipientId });
    }
  })();
  const insertMessage = db.prepare(
    `INSERT INTO messages (sender_id, recipient_id, stream_id, topic, content, rendered_content,
       rendered_content_version, date_sent, client, is_me_message, topic_links)
     VALUES (?, ?, ?, ?, ?, ?, 1, ?, 'bench', 0, '[]')`,
  );
  const insertUserMessage = db.prepare('INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, 1)');
  const start = Math.floor(Date.now() / 1000) - SEEDED_MESSAGES;
  let seed = 12345;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let done = 0; done < SEEDED_MESSAGES; done += BATCH) {
    db.transaction(() => {
      for (let i = done; i < Math.min(done + BATCH, SEEDED_MESSAGES); i++) {
        const stream = streams[i % STREAMS] as { id: number; recipientId: number };
        const topic = `topic-${Math.floor(i / STREAMS) % TOPICS_PER_STREAM}`;
        const words = Array.from({ length: 8 + random(12) }, () => WORDS[random(WORDS.length)]).join(' ');
        const id = Number(
          insertMessage.run(owner, stream.recipientId, stream.id, topic, words, `<p>${words}</p>`, start + i).lastInsertRowid,
        );
        insertUserMessage.run(owner, id);
      }
    })();
  }
  db.prepare('UPDATE streams SET first_message_id = (SELECT min(id) FROM messages WHERE stream_id = streams.id)').run();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  fs.writeFileSync(marker, want);
  console.log(`seeded ${SEEDED_MESSAGES} messages in ${((Date.now() - started) / 1000).toFixed(0)} s (kept in ${dataDir})`);
  return dataDir;
}
