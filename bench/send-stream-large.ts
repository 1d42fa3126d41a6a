import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_REALM, realmFile } from '../src/wire/realm-names';
import { measure, report } from './lib/measure';
import { ownerAuthHeader, startChatServer, startIdeal } from './lib/processes';
import { measureSendFloor } from './lib/send-floor';
import { seededRealmDir } from './lib/seed-users';
import { reportFloor } from './send-stream';

const SUBSCRIBERS = 1_000;
const CONNECTIONS = 100;
const STREAM = 'large stream';

/** A realm of SUBSCRIBERS users all in STREAM, seeded by bulk insert and kept between runs. */
function seededLargeStream(): Promise<string> {
  return seededRealmDir(`teamchat-bench-large-stream-${SUBSCRIBERS}`, SUBSCRIBERS, 'subscriber', (db) => {
    const groupId = (db.prepare('SELECT id FROM user_groups ORDER BY id LIMIT 1').get() as { id: number }).id;
    const recipientId = Number(db.prepare('INSERT INTO recipients (kind) VALUES (2)').run().lastInsertRowid);
    const streamId = Number(
      db
        .prepare('INSERT INTO streams (name, recipient_id, date_created, can_remove_subscribers_group_id) VALUES (?, ?, ?, ?)')
        .run(STREAM, recipientId, Math.floor(Date.now() / 1000), groupId).lastInsertRowid,
    );
    db.prepare(`INSERT INTO subscriptions (user_id, stream_id, color) SELECT id, ?, '#76ce90' FROM users WHERE is_bot = 0`).run(streamId);
  });
}

/**
 * send-stream-large (issue 24 §3): POST /messages to a stream of 1,000 subscribers, 100
 * connections, against the ideal send and against its own storage floor (the message row and
 * 1,000 recipients' rows). Runs on a copy of the seeded realm, which the sends would grow.
 */
export async function run(): Promise<void> {
  const seeded = await seededLargeStream();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'teamchat-bench-large-'));
  fs.cpSync(seeded, dataDir, { recursive: true });
  const server = await startChatServer({}, dataDir);
  const idealDir = fs.mkdtempSync(path.join(os.tmpdir(), 'teamchat-bench-ideal-'));
  const ideal = await startIdeal('send', path.join(idealDir, 'ideal.sqlite3'));
  try {
    const auth = ownerAuthHeader(dataDir);
    const body = new URLSearchParams({
      type: 'stream',
      to: STREAM,
      topic: 'bench',
      content: 'Hello, **world**! How is everyone doing today?',
    });
    const headers = { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded' };
    const load = { method: 'POST' as const, headers, body: body.toString(), connections: CONNECTIONS };
    const subject = await measure({ ...load, url: `${server.url}/api/v1/messages` });
    const ceiling = await measure({ ...load, url: `${ideal.url}/api/v1/messages` });
    report(`send-stream-large (${SUBSCRIBERS} subscribers, ${CONNECTIONS} connections)`, subject, ceiling, 'ideal send');
    await server.stop();
    reportFloor(measureSendFloor(realmFile(dataDir, DEFAULT_REALM), STREAM, 2_000), ceiling, subject, 'send-stream-large');
  } finally {
    await server.stop();
    await ideal.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(idealDir, { recursive: true, force: true });
  }
}

if (require.main === module) void run();
