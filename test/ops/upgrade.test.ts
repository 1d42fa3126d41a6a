import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { realmFile, realmsDir, snapshotsDir } from '../../src/wire/realm-names';
import { MIGRATIONS } from '../../workers/db/migrations';
import { V1_REALM } from '../fixtures/make-realm-schema-v1';
import { ApiClient } from '../helpers/http';
import { REPO_ROOT, startServer, tempDataDir } from '../helpers/server';

// Upgrades (issue 23): a realm file made by the first schema version (test/fixtures/, see its
// generator) is copied into backups/<realm>/ before it is migrated, migrated in one
// transaction, and serves its history through the HTTP API.

const FIXTURE = path.join(REPO_ROOT, 'test', 'fixtures', 'realm-schema-v1.sqlite3');

function fileFacts(file: string): { version: number; integrity: string; messages: number } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return {
      version: db.pragma('user_version', { simple: true }) as number,
      integrity: db.pragma('integrity_check', { simple: true }) as string,
      messages: db.prepare('SELECT count(*) FROM messages').pluck().get() as number,
    };
  } finally {
    db.close();
  }
}

t.test('a realm file of the first schema version is copied, migrated and serves its history', async (t) => {
  const dataDir = tempDataDir();
  fs.mkdirSync(realmsDir(dataDir), { recursive: true });
  fs.copyFileSync(FIXTURE, realmFile(dataDir, V1_REALM.subdomain));
  let server = await startServer({ dataDir });
  t.teardown(() => server.stop());
  const host = (): string => `${V1_REALM.subdomain}.localhost:${server.port}`;
  const owner = (): ApiClient => new ApiClient(server.baseUrl, V1_REALM.owner, host());

  const history = async (client: ApiClient): Promise<unknown[]> => {
    const res = await client.get('/messages', { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [], apply_markdown: false });
    t.equal(res.status, 200, res.text);
    return (res.body['messages'] as Record<string, unknown>[]).map((m) => [
      m['sender_email'],
      m['display_recipient'],
      m['subject'],
      m['content'],
    ]);
  };
  const emails = [V1_REALM.owner.email, V1_REALM.member.email];
  const expected = V1_REALM.messages.map(([sender, topic, content]) => [emails[sender], 'general', topic, content]);
  t.strictSame(await history(owner()), expected, "the owner reads the realm's history");
  t.strictSame(await history(new ApiClient(server.baseUrl, V1_REALM.member, host())), expected, 'and so does the member');
  const rendered = await owner().get('/messages', {
    anchor: 'newest',
    num_before: 3,
    num_after: 0,
    narrow: [{ operator: 'topic', operand: 'welcome' }],
  });
  t.strictSame(
    (rendered.body['messages'] as Record<string, unknown>[]).map((m) => m['content']),
    ['<p>Hello from the first schema version</p>', '<p>Still here after the <strong>upgrade</strong>?</p>'],
  );
  const sent = await owner().post('/messages', { type: 'stream', to: 'general', topic: 'plans', content: 'Written by the new schema' });
  t.equal(sent.status, 200, sent.text);

  const dir = snapshotsDir(dataDir, V1_REALM.subdomain);
  const copies = fs.readdirSync(dir).filter((name) => name.endsWith('.sqlite3'));
  t.equal(copies.length, 1, `one copy before the migration: ${copies.join(', ')}`);
  t.match(copies[0], /^pre-migration-v1-\d{8}T\d{9}Z\.sqlite3$/);
  t.strictSame(
    fileFacts(path.join(dir, copies[0] ?? '')),
    { version: 1, integrity: 'ok', messages: 3 },
    'the copy is the file as the old server left it',
  );

  // A current file is not copied again on the next start.
  await server.stop();
  server = await startServer({ dataDir, port: server.port });
  t.strictSame((await history(owner())).length, 4);
  t.strictSame(
    fs.readdirSync(dir).filter((name) => name.endsWith('.sqlite3')),
    copies,
    'no copy of a file already migrated',
  );
  await server.stop();
  t.strictSame(fileFacts(realmFile(dataDir, V1_REALM.subdomain)), { version: MIGRATIONS.length, integrity: 'ok', messages: 4 });
});
