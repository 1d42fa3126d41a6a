import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { postFiles, rawRequest } from '../helpers/files';
import { ApiClient } from '../helpers/http';
import { manage, type ManageResult } from '../helpers/manage';
import { sendToStream } from '../helpers/realm-file';
import { startServer, tempDataDir } from '../helpers/server';

// issue 23: export-realm writes one realm's data (uploads included) as JSON; import-realm makes
// a NEW realm of it, which the server serves; export → import → export gives the same data.

function json(result: ManageResult): Record<string, unknown> {
  if (result.status !== 0) throw new Error(`manage failed (${String(result.status)}): ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

async function history(api: ApiClient, narrow: unknown[] = []): Promise<string[]> {
  const res = await api.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, apply_markdown: false, narrow });
  if (res.status !== 200) throw new Error(`GET /messages failed: ${res.text}`);
  return (res.body['messages'] as { content: string }[]).map((m) => m.content);
}

t.test('export → import → export', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const env = { DATA_DIR: server.dataDir, EXTERNAL_HOST: `localhost:${server.port}` };
  const api = new ApiClient(server.baseUrl, server.owner);
  const bytes = Buffer.from([0, 1, 2, 254, 255, 10, 13]);
  const uploaded = await postFiles(server.baseUrl, '/user_uploads', server.owner, [
    { field: 'file', filename: 'raw.bin', contentType: 'application/octet-stream', data: bytes },
  ]);
  const uri = String(uploaded.json()['uri']);
  const sent = await sendToStream(api, 'general', 'exports', `the file [raw](${uri}) and a walrus`);
  t.equal((await api.post('/messages/' + String(sent) + '/reactions', { emoji_name: 'smile' })).status, 200);
  const original = await history(api);

  const dir = tempDataDir();
  const first = path.join(dir, 'first.json');
  const exported = json(manage(['export-realm', '--to', first, '--json'], env));
  const imported = json(manage(['import-realm', first, '--realm', 'copy', '--json'], env));
  const second = path.join(dir, 'second.json');
  json(manage(['export-realm', '--realm', 'copy', '--to', second, '--json'], env));

  const a = JSON.parse(fs.readFileSync(first, 'utf8')) as Record<string, unknown>;
  const b = JSON.parse(fs.readFileSync(second, 'utf8')) as Record<string, unknown>;
  t.strictSame({ ...b, realm: 'default' }, a, 'the same data, but for the realm name');
  t.equal(b['realm'], 'copy');
  const tables = Object.values(a['tables'] as Record<string, { rows: unknown[] }>);
  const rows = tables.reduce((sum, table) => sum + table.rows.length, 0);
  t.strictSame(exported, { realm: 'default', file: first, tables: tables.length, rows });
  t.strictSame(imported, { realm: 'copy', file: first, tables: tables.length, rows });
  const attachments = (a['tables'] as Record<string, { rows: unknown[] }>)['attachment_chunks']?.rows ?? [];
  t.equal(attachments.length > 0, true, 'uploads are in the export');

  // The new realm is served at once, with the same accounts, history, search and uploads.
  const copy = new ApiClient(server.baseUrl, server.owner, `copy.localhost:${server.port}`);
  t.strictSame(await history(copy), original);
  t.strictSame(await history(copy, [{ operator: 'search', operand: 'walrus' }]), [`the file [raw](${uri}) and a walrus`]);
  const file = await rawRequest(server.baseUrl, uri, { auth: server.owner, host: `copy.localhost:${server.port}` });
  t.equal(file.status, 200);
  t.strictSame(file.body, bytes);

  await t.test('refusals change nothing', async (t) => {
    const exists = manage(['import-realm', first, '--realm', 'copy'], env);
    t.strictSame([exists.status, exists.stderr], [1, "error: realm 'copy' already exists; import into a new realm\n"]);
    const notJson = path.join(dir, 'not.json');
    fs.writeFileSync(notJson, 'not json at all');
    const unreadable = manage(['import-realm', notJson, '--realm', 'other'], env);
    t.strictSame(
      [unreadable.status, unreadable.stderr],
      [1, `error: ${notJson}: Unexpected token 'o', "not json at all" is not valid JSON\n`],
    );
    const older = path.join(dir, 'older.json');
    fs.writeFileSync(older, JSON.stringify({ ...a, schema_version: 1 }));
    const version = manage(['import-realm', older, '--realm', 'other'], env);
    t.strictSame(
      [version.status, version.stderr],
      [
        1,
        `error: the export has schema version 1; this server writes ${String(a['schema_version'])} (import it with the server version that made it)\n`,
      ],
    );
    const missing = manage(['export-realm', '--realm', 'nowhere', '--to', path.join(dir, 'x.json')], env);
    t.strictSame([missing.status, missing.stderr], [1, `error: no realm 'nowhere' in ${server.dataDir}\n`]);
    t.equal(fs.existsSync(path.join(server.dataDir, 'realms', 'other.sqlite3')), false, 'no realm was made');
  });
});
