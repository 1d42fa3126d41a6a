import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { snapshotsDir } from '../../src/wire/realm-names';
import { snapshotStart } from '../../workers/db/snapshot';
import { ApiClient } from '../helpers/http';
import { scrape, total } from '../helpers/metrics';
import { freePort, startServer } from '../helpers/server';

// Periodic snapshots (issue 23 "Backups that restore"): BACKUP_INTERVAL and BACKUP_KEEP, written
// by the shard that owns the realm while it goes on serving. Every snapshot is a sound SQLite
// file holding every message acknowledged before the snapshot began (its name says when).

const SNAPSHOTS_CHECKED = 40;

/** The complete periodic snapshots in `dir`, oldest first. */
function snapshotFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.startsWith('snapshot-') && name.endsWith('.sqlite3'))
    .sort();
}

t.test('40 snapshots taken while messages are written', async (t) => {
  const server = await startServer({ env: { BACKUP_INTERVAL: '0.05', BACKUP_KEEP: '1000' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const dir = snapshotsDir(server.dataDir, 'default');

  // Two writers send one message after another, each recording when its send was acknowledged.
  const acked: { id: number; at: number }[] = [];
  let writing = true;
  const writer = async (name: string): Promise<void> => {
    for (let i = 0; writing; i++) {
      const res = await api.post('/messages', { type: 'stream', to: 'general', topic: name, content: `${name} ${i}` });
      if (res.status !== 200) throw new Error(`send failed: ${res.text}`);
      acked.push({ id: res.body['id'] as number, at: Date.now() });
    }
  };
  const writers = [writer('first writer'), writer('second writer')];
  const deadline = Date.now() + 60_000;
  while (snapshotFiles(dir).length < SNAPSHOTS_CHECKED && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  writing = false;
  await Promise.all(writers);

  const files = snapshotFiles(dir).slice(0, SNAPSHOTS_CHECKED);
  t.equal(files.length, SNAPSHOTS_CHECKED, `${SNAPSHOTS_CHECKED} snapshots written (${acked.length} messages sent meanwhile)`);
  const problems: string[] = [];
  let expectedTotal = 0;
  let snapshotsDuringWrites = 0;
  for (const file of files) {
    const started = snapshotStart(file)?.getTime() ?? NaN;
    const db = new Database(path.join(dir, file), { readonly: true, fileMustExist: true });
    try {
      const integrity = db.pragma('integrity_check') as { integrity_check: string }[];
      if (integrity.length !== 1 || integrity[0]?.integrity_check !== 'ok') problems.push(`${file}: ${JSON.stringify(integrity)}`);
      const held = new Set((db.prepare('SELECT id FROM messages').pluck().all() as number[]).map(Number));
      const expected = acked.filter((ack) => ack.at < started);
      expectedTotal += expected.length;
      if (expected.length > 0 && expected.length < acked.length) snapshotsDuringWrites++;
      const missing = expected.filter((ack) => !held.has(ack.id)).map((ack) => ack.id);
      if (missing.length > 0) problems.push(`${file}: acknowledged before it began but missing: ${missing.join(', ')}`);
    } finally {
      db.close();
    }
  }
  t.strictSame(problems, [], 'every snapshot passes integrity_check and holds every message acknowledged before it began');
  t.ok(snapshotsDuringWrites >= SNAPSHOTS_CHECKED / 2, `${snapshotsDuringWrites} snapshots began between two acknowledged sends`);
  t.ok(expectedTotal > 0, `${expectedTotal} acknowledged messages checked in all`);
});

t.test('old snapshots are pruned to BACKUP_KEEP', async (t) => {
  const metricsPort = await freePort();
  const server = await startServer({ env: { BACKUP_INTERVAL: '0.05', BACKUP_KEEP: '2', METRICS_PORT: String(metricsPort) } });
  t.teardown(() => server.stop());
  const dir = snapshotsDir(server.dataDir, 'default');
  const deadline = Date.now() + 30_000;
  let written = 0;
  while (written < 5 && Date.now() < deadline) {
    written = total(await scrape(metricsPort), 'teamchat_snapshots_written_total');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.ok(written >= 5, `${written} snapshots written`);
  // Between a snapshot and its pruning a third one may be there for a moment.
  let kept = snapshotFiles(dir);
  while (kept.length !== 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    kept = snapshotFiles(dir);
  }
  t.equal(kept.length, 2, 'the two newest are kept');
  const failed = total(await scrape(metricsPort), 'teamchat_snapshots_failed_total');
  t.equal(failed, 0, 'none failed');
});
