import Database from 'better-sqlite3';
import path from 'node:path';
import t from 'tap';
import { ApiClient } from '../helpers/http';
import { manage } from '../helpers/manage';
import { readIni, startServer } from '../helpers/server';
import fs from 'node:fs';

function iniFromText(text: string): Record<string, string> {
  const file = path.join(fs.mkdtempSync('/tmp/ini-'), 'x.ini');
  fs.writeFileSync(file, text);
  return readIni(file);
}

// DESIGN §Realms: the Host header picks the realm; realms are isolated from each other.
t.test('realms', async (t) => {
  // Two shards: realms apart on threads of their own and together on one.
  const server = await startServer({ env: { SHARDS: '2' } });
  t.teardown(() => server.stop());
  const env = { DATA_DIR: server.dataDir, EXTERNAL_HOST: `localhost:${server.port}` };
  const host = (sub: string): string => `${sub}.localhost:${server.port}`;

  t.test('the first start created the default realm and its owner file', async (t) => {
    const ini = readIni(path.join(server.dataDir, 'owner.ini'));
    t.equal(ini['site'], `http://localhost:${server.port}`);
    t.match(ini['email'], /@/);
    const mode = fs.statSync(path.join(server.dataDir, 'owner.ini')).mode & 0o777;
    t.equal(mode, 0o600, 'credentials are private to the owner');
  });

  t.test('localhost, 127.0.0.1 and the external host all reach the default realm', async (t) => {
    for (const h of [`localhost:${server.port}`, `127.0.0.1:${server.port}`]) {
      const res = await new ApiClient(server.baseUrl, server.owner, h).get('/users/me');
      t.equal(res.status, 200, h);
    }
  });

  t.test('an unknown realm is a 404 JSON error', async (t) => {
    const res = await new ApiClient(server.baseUrl, null, host('nowhere')).get('/server_settings');
    t.equal(res.status, 404);
    t.equal(res.body['code'], 'NONEXISTENT_SUBDOMAIN');
    const foreign = await new ApiClient(server.baseUrl, null, 'example.org').get('/server_settings');
    t.equal(foreign.status, 404);
    t.equal(foreign.body['result'], 'error');
  });

  let acme: Record<string, string> = {};
  t.test('create-realm makes a realm that the running server serves at once', async (t) => {
    const created = manage(
      ['create-realm', '--subdomain', 'acme', '--name', 'Acme Inc', '--owner-email', 'boss@acme.test', '--owner-name', 'Boss'],
      env,
    );
    t.equal(created.status, 0, created.stderr);
    acme = iniFromText(created.stdout);
    t.equal(acme['email'], 'boss@acme.test');
    t.equal(acme['site'], `http://${host('acme')}`);
    t.equal(acme['key']?.length, 32);
    const client = new ApiClient(server.baseUrl, { email: acme['email'] ?? '', key: acme['key'] ?? '' }, host('acme'));
    const me = await client.get('/users/me');
    t.equal(me.status, 200);
    t.equal(me.body['full_name'], 'Boss');
    const settings = await client.as(null).get('/server_settings');
    t.equal(settings.body['realm_name'], 'Acme Inc');
    t.equal(settings.body['realm_uri'], `http://${host('acme')}`);
  });

  t.test('create-realm refuses bad arguments and existing realms with clear errors', async (t) => {
    const again = manage(['create-realm', '--subdomain', 'acme', '--name', 'X', '--owner-email', 'a@b.c'], env);
    t.equal(again.status, 2);
    t.match(again.stderr, /already exists/);
    const bad = manage(['create-realm', '--subdomain', 'Bad_Name!', '--name', 'X', '--owner-email', 'a@b.c'], env);
    t.equal(bad.status, 2);
    t.match(bad.stderr, /--subdomain/);
    const noEmail = manage(['create-realm', '--subdomain', 'x1', '--name', 'X'], env);
    t.equal(noEmail.status, 2);
    t.match(noEmail.stderr, /--owner-email/);
    const unknown = manage(['frobnicate'], env);
    t.equal(unknown.status, 2);
    t.match(unknown.stderr, /unknown command/);
  });

  t.test('list-realms lists every realm', async (t) => {
    const listed = manage(['list-realms'], env);
    t.equal(listed.status, 0);
    t.match(listed.stdout, /^acme\tAcme Inc$/m);
    t.match(listed.stdout, /^default\t/m);
  });

  t.test('a key of one realm never authenticates in another', async (t) => {
    const acmeOwner = { email: acme['email'] ?? '', key: acme['key'] ?? '' };
    const onDefault = await new ApiClient(server.baseUrl, acmeOwner).get('/users/me');
    t.equal(onDefault.status, 401);
    t.equal(onDefault.body['code'], 'INVALID_API_KEY');
    const onAcme = await new ApiClient(server.baseUrl, server.owner, host('acme')).get('/users/me');
    t.equal(onAcme.status, 401);
  });

  t.test('a key of a realm on the same shard never authenticates in another', async (t) => {
    // With SHARDS=2, `neighbour` hashes to the default realm's shard (src/wire/shard-hash.ts):
    // both realms live in one worker thread, so nothing kept per thread may mix them.
    const created = manage(
      ['create-realm', '--subdomain', 'neighbour', '--name', 'Neighbour', '--owner-email', 'next@neighbour.test'],
      env,
    );
    t.equal(created.status, 0, created.stderr);
    const ini = iniFromText(created.stdout);
    const neighbourOwner = { email: ini['email'] ?? '', key: ini['key'] ?? '' };
    t.equal((await new ApiClient(server.baseUrl, neighbourOwner, host('neighbour')).get('/users/me')).status, 200);
    t.equal((await new ApiClient(server.baseUrl, server.owner).get('/users/me')).status, 200);
    const onDefault = await new ApiClient(server.baseUrl, neighbourOwner).get('/users/me');
    t.strictSame([onDefault.status, onDefault.body['code']], [401, 'INVALID_API_KEY']);
    const onNeighbour = await new ApiClient(server.baseUrl, server.owner, host('neighbour')).get('/users/me');
    t.strictSame([onNeighbour.status, onNeighbour.body['code']], [401, 'INVALID_API_KEY']);
  });

  t.test('messages and streams of one realm are invisible in another', async (t) => {
    const acmeClient = new ApiClient(server.baseUrl, { email: acme['email'] ?? '', key: acme['key'] ?? '' }, host('acme'));
    await acmeClient.post('/users/me/subscriptions', { subscriptions: [{ name: 'acme-secrets' }] });
    const sent = await acmeClient.post('/messages', { type: 'stream', to: 'acme-secrets', topic: 't', content: 'hidden' });
    t.equal(sent.status, 200);
    const defaultClient = new ApiClient(server.baseUrl, server.owner);
    const streams = await defaultClient.get('/streams');
    const names = (streams.body['streams'] as { name: string }[]).map((s) => s.name);
    t.notOk(names.includes('acme-secrets'));
    const peek = await defaultClient.get(`/messages/${String(sent.body['id'])}`);
    if (peek.status === 200) {
      t.not((peek.body['message'] as Record<string, unknown>)['content'], '<p>hidden</p>', 'same id, other realm message');
    } else {
      t.equal(peek.body['msg'], 'Invalid message(s)');
    }
  });

  t.test('a deactivated realm refuses its users with REALM_DEACTIVATED', async (t) => {
    const created = manage(['create-realm', '--subdomain', 'gone', '--name', 'Gone', '--owner-email', 'o@gone.test'], env);
    t.equal(created.status, 0);
    const ini = iniFromText(created.stdout);
    const db = new Database(path.join(server.dataDir, 'realms', 'gone.sqlite3'));
    // Kept a file write: neither the API nor the manage CLI (create-realm, list-realms, backup)
    // deactivates a realm.
    db.prepare('UPDATE realm SET deactivated = 1').run();
    db.close();
    const res = await new ApiClient(server.baseUrl, { email: ini['email'] ?? '', key: ini['key'] ?? '' }, host('gone')).get('/users/me');
    t.equal(res.status, 401);
    t.strictSame(res.body, { result: 'error', msg: 'This organization has been deactivated', code: 'REALM_DEACTIVATED' });
  });

  t.test('a realm file from a newer server is refused with a 503, and its shard keeps serving', async (t) => {
    const created = manage(['create-realm', '--subdomain', 'future', '--name', 'Future', '--owner-email', 'o@future.test'], env);
    t.equal(created.status, 0);
    const db = new Database(path.join(server.dataDir, 'realms', 'future.sqlite3'));
    db.pragma('user_version = 999');
    db.close();
    const res = await new ApiClient(server.baseUrl, null, host('future')).get('/server_settings');
    t.equal(res.status, 503);
    t.equal(res.body['result'], 'error');
    const other = await new ApiClient(server.baseUrl, server.owner).get('/users/me');
    t.equal(other.status, 200);
  });

  t.test('backup writes a consistent copy of every realm while the server runs', async (t) => {
    const target = fs.mkdtempSync('/tmp/teamchat-backup-');
    const res = manage(['backup', '--to', target], env);
    t.equal(res.status, 0, res.stderr);
    const copy = new Database(path.join(target, 'default.sqlite3'), { readonly: true });
    t.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
    t.ok((copy.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n >= 1);
    copy.close();
  });
});
