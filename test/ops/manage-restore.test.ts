import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { EventReader } from '../helpers/events';
import { postFiles, rawRequest } from '../helpers/files';
import { ApiClient } from '../helpers/http';
import { manage } from '../helpers/manage';
import { sendToStream } from '../helpers/realm-file';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';

// issue 23 "Backups that restore": backup → restore, against a running server (--force) and on
// the files with none; a damaged file is refused and changes nothing; check finds it.

/** Every message's content, oldest first, as GET /messages serves them. */
async function history(api: ApiClient): Promise<string[]> {
  const res = await api.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, apply_markdown: false });
  if (res.status !== 200) throw new Error(`GET /messages failed: ${res.text}`);
  return (res.body['messages'] as { content: string }[]).map((m) => m.content);
}

async function upload(server: TestServer, data: Buffer): Promise<string> {
  const res = await postFiles(server.baseUrl, '/user_uploads', server.owner, [
    { field: 'file', filename: 'notes.txt', contentType: 'text/plain', data },
  ]);
  if (res.status !== 200) throw new Error(`upload failed: ${res.body.toString()}`);
  return String(res.json()['uri']);
}

/** A copy of `file` with one page overwritten: SQLite's integrity check fails on it. */
function damagedCopy(file: string, target: string): string {
  fs.copyFileSync(file, target);
  const fd = fs.openSync(target, 'r+');
  fs.writeSync(fd, Buffer.alloc(4096, 0xff), 0, 4096, 4096 * 3);
  fs.closeSync(fd);
  return target;
}

function truncatedCopy(file: string, target: string): string {
  fs.writeFileSync(target, fs.readFileSync(file).subarray(0, 1000));
  return target;
}

t.test('restore into a running server', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const env = { DATA_DIR: server.dataDir, EXTERNAL_HOST: `localhost:${server.port}` };
  const api = new ApiClient(server.baseUrl, server.owner);
  const fileBytes = Buffer.from('kept in the backup');
  const uri = await upload(server, fileBytes);
  await sendToStream(api, 'general', 'backups', `before the backup [notes](${uri})`);
  const backedUp = await history(api);

  const backupDir = tempDataDir();
  const backup = manage(['backup', '--to', backupDir, '--json'], env);
  t.equal(backup.status, 0, backup.stderr);
  const backupFile = path.join(backupDir, 'default.sqlite3');
  t.strictSame(JSON.parse(backup.stdout), { backups: [{ realm: 'default', file: backupFile }] });
  t.equal(backup.stderr, '');
  const check = manage(['check', '--json'], env);
  t.equal(check.status, 0, check.stderr);
  t.equal((JSON.parse(check.stdout) as { ok: boolean }).ok, true, 'check reads a served realm file');
  await sendToStream(api, 'general', 'backups', 'after the backup');
  const current = await history(api);
  t.strictSame(current, [...backedUp, 'after the backup']);

  const reader = await EventReader.register(api, { event_types: ['message'] });

  await t.test('refused while served, without --force; nothing changes', async (t) => {
    const refused = manage(['restore', backupFile], env);
    t.equal(refused.status, 1);
    t.equal(refused.stderr, "error: realm 'default' is being served; add --force to replace it (its clients must register again)\n");
    t.equal(refused.stdout, '');
    t.strictSame(await history(api), current);
  });

  await t.test('a damaged or truncated file is refused, even with --force; nothing changes', async (t) => {
    for (const bad of [
      damagedCopy(backupFile, path.join(backupDir, 'damaged.sqlite3')),
      truncatedCopy(backupFile, path.join(backupDir, 'cut.sqlite3')),
    ]) {
      const refused = manage(['restore', bad, '--force'], env);
      t.equal(refused.status, 1);
      t.equal(refused.stderr, `error: ${bad}: database disk image is malformed; nothing was changed\n`);
      t.strictSame(await history(api), current);
      t.strictSame(await reader.next(), [], 'the queue still works');
    }
  });

  await t.test('a backup restored as a new realm is served under its new name at once, no --force needed', async (t) => {
    const restored = manage(['restore', backupFile, '--realm', 'moved', '--json'], env);
    t.equal(restored.status, 0, restored.stderr);
    t.equal((JSON.parse(restored.stdout) as { previous_file: unknown }).previous_file, null);
    const moved = new ApiClient(server.baseUrl, server.owner, `moved.localhost:${server.port}`);
    t.strictSame(await history(moved), backedUp);
    const res = await moved.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 });
    t.strictSame(
      (res.body['messages'] as { sender_realm_str: string }[]).map((m) => m.sender_realm_str),
      ['moved'],
    );
  });

  await t.test('--force swaps the file in: queues end, the backed-up history and uploads are served', async (t) => {
    const restored = manage(['restore', backupFile, '--force', '--json'], env);
    t.equal(restored.status, 0, restored.stderr);
    const answer = JSON.parse(restored.stdout) as Record<string, unknown>;
    const previous = String(answer['previous_file']);
    t.strictSame(answer, {
      realm: 'default',
      restored_from: backupFile,
      schema_version: answer['schema_version'],
      previous_file: previous,
    });
    t.ok(fs.existsSync(previous), 'the replaced file is kept');
    const poll = await api.get('/events', { queue_id: reader.queueId, last_event_id: -1, dont_block: true });
    t.strictSame(poll.status, 400);
    t.strictSame(poll.body, {
      result: 'error',
      msg: `Bad event queue ID: ${reader.queueId}`,
      code: 'BAD_EVENT_QUEUE_ID',
      queue_id: reader.queueId,
    });
    t.strictSame(await history(api), backedUp);
    const file = await rawRequest(server.baseUrl, uri, { auth: server.owner });
    t.equal(file.status, 200);
    t.strictSame(file.body, fileBytes);
    // Served again as before: new messages go in.
    await sendToStream(api, 'general', 'backups', 'after the restore');
    t.strictSame(await history(api), [...backedUp, 'after the restore']);
  });
});

t.test('a poll parked on a queue during a forced restore is answered, and its queue is gone', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const env = { DATA_DIR: server.dataDir, EXTERNAL_HOST: `localhost:${server.port}` };
  const api = new ApiClient(server.baseUrl, server.owner);
  const backupDir = tempDataDir();
  t.equal(manage(['backup', '--to', backupDir], env).status, 0);
  const reader = await EventReader.register(api, { event_types: ['message'] });
  const other = await EventReader.register(api, { event_types: ['message'] });
  const parked = api.get('/events', { queue_id: reader.queueId, last_event_id: -1 });
  // A round trip to the same shard after it: the poll is parked there by then.
  await other.next();
  const restored = manage(['restore', path.join(backupDir, 'default.sqlite3'), '--force'], env);
  t.equal(restored.status, 0, restored.stderr);
  t.strictSame((await parked).body, { result: 'success', msg: '', events: [] });
  const again = await api.get('/events', { queue_id: reader.queueId, last_event_id: -1, dont_block: true });
  t.strictSame(again.body, {
    result: 'error',
    msg: `Bad event queue ID: ${reader.queueId}`,
    code: 'BAD_EVENT_QUEUE_ID',
    queue_id: reader.queueId,
  });
});

t.test('restore and check on the files, with no server', async (t) => {
  const server = await startServer();
  const env = { DATA_DIR: server.dataDir, EXTERNAL_HOST: `localhost:${server.port}` };
  const api = new ApiClient(server.baseUrl, server.owner);
  const fileBytes = Buffer.from('offline upload');
  const uri = await upload(server, fileBytes);
  await sendToStream(api, 'general', 'offline', `kept [notes](${uri})`);
  const backedUp = await history(api);
  const backupDir = tempDataDir();
  t.equal(manage(['backup', '--to', backupDir], env).status, 0);
  await sendToStream(api, 'general', 'offline', 'lost by the restore');
  await server.stop();
  const backupFile = path.join(backupDir, 'default.sqlite3');

  const check = manage(['check', '--json'], env);
  t.equal(check.status, 0, check.stderr);
  const checked = JSON.parse(check.stdout) as { ok: boolean; realms: Record<string, unknown>[] };
  const version = checked.realms[0]?.['schema_version'];
  t.strictSame(checked, {
    ok: true,
    realms: [
      {
        realm: 'default',
        file: path.join(server.dataDir, 'realms', 'default.sqlite3'),
        ok: true,
        schema_version: version,
        server_schema_version: version,
        problem: null,
      },
    ],
  });

  const damaged = damagedCopy(backupFile, path.join(backupDir, 'damaged.sqlite3'));
  const before = fs.readFileSync(path.join(server.dataDir, 'realms', 'default.sqlite3'));
  const refused = manage(['restore', damaged], env);
  t.equal(refused.status, 1);
  t.equal(refused.stderr, `error: ${damaged}: database disk image is malformed; nothing was changed\n`);
  t.strictSame(fs.readFileSync(path.join(server.dataDir, 'realms', 'default.sqlite3')), before, 'the realm file is untouched');

  const restored = manage(['restore', backupFile], env);
  t.equal(restored.status, 0, restored.stderr);
  t.match(restored.stdout, /^restored default from .*\nthe replaced file is kept as .*before-restore-/);

  // A damaged realm file makes check fail, naming it.
  fs.copyFileSync(damaged, path.join(server.dataDir, 'realms', 'broken.sqlite3'));
  const failing = manage(['check'], env);
  t.equal(failing.status, 1);
  t.equal(failing.stderr, 'error: 1 of 2 realm files failed the check\n');
  t.match(failing.stdout, /^broken +PROBLEM +schema \d+\/\d+ +database disk image is malformed$/m);
  fs.rmSync(path.join(server.dataDir, 'realms', 'broken.sqlite3'));

  const again = await startServer({ dataDir: server.dataDir });
  t.teardown(() => again.stop());
  const restoredApi = new ApiClient(again.baseUrl, again.owner);
  t.strictSame(await history(restoredApi), backedUp);
  const file = await rawRequest(again.baseUrl, uri, { auth: again.owner });
  t.equal(file.status, 200);
  t.strictSame(file.body, fileBytes);
});
