import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { haproxyProgram } from '../../src/cli/proxy-config';
import { readPlacement, writePlacement, type Placement } from '../../src/realm/placement';
import { realmFile } from '../../src/wire/realm-names';
import { rawRequest, postFiles } from '../helpers/files';
import { ApiClient } from '../helpers/http';
import { manage } from '../helpers/manage';
import { createRealmOn, eventually, nodeEnv } from '../helpers/placement';
import { freePort, startServer, tempDataDir, type Credentials } from '../helpers/server';

/**
 * README "Scaling out": two server processes behind HAProxy (Debian's package), each serving
 * its own realms, and a realm moved from one to the other with its history and uploads.
 */
const haproxy = haproxyProgram();
if (haproxy === null && process.env['CI']) throw new Error('CI runs every tier, but haproxy is not installed: apt-get install haproxy');
const skip = haproxy === null ? 'haproxy is not installed (apt-get install haproxy; .ci/run installs it)' : false;

t.test('realms spread over two processes behind HAProxy', { skip }, async (t) => {
  const work = tempDataDir();
  const [proxyPort, port1, port2] = [await freePort(), await freePort(), await freePort()];
  const externalHost = `localhost:${proxyPort}`;
  const placementFile = path.join(work, 'placement.json');
  const haproxyConfig = path.join(work, 'haproxy.cfg');
  const [dir1, dir2] = [path.join(work, 'node1'), path.join(work, 'node2')];
  const placement: Placement = {
    bind: `127.0.0.1:${proxyPort}`,
    nodes: { node1: { address: `127.0.0.1:${port1}`, dataDir: dir1 }, node2: { address: `127.0.0.1:${port2}`, dataDir: dir2 } },
    realms: { default: 'node1', alpha: 'node1', beta: 'node2' },
    moving: [],
  };
  writePlacement(placementFile, placement);
  const env1 = nodeEnv('node1', dir1, placementFile, externalHost);
  const env2 = nodeEnv('node2', dir2, placementFile, externalHost);
  const owners: Record<string, Credentials> = { alpha: createRealmOn('alpha', env1), beta: createRealmOn('beta', env2) };

  const node1 = await startServer({ port: port1, dataDir: dir1, env: { ...env1, SHARDS: '1' } });
  t.teardown(() => node1.stop());
  const node2 = await startServer({ port: port2, dataDir: dir2, env: { ...env2, SHARDS: '1' }, withoutDefaultRealm: true });
  t.teardown(() => node2.stop());
  owners['default'] = node1.owner;

  const written = manage(['proxy-config', '--out', haproxyConfig], env1);
  t.strictSame([written.status, written.stdout, written.stderr], [0, `wrote ${haproxyConfig}\n`, '']);
  // Master-worker mode in the foreground: SIGUSR2 to this process reloads the configuration.
  const proxy = spawn(haproxy ?? 'haproxy', ['-W', '-db', '-f', haproxyConfig], { stdio: ['ignore', 'pipe', 'pipe'] });
  let proxyOutput = '';
  proxy.stdout.on('data', (chunk: Buffer) => (proxyOutput += chunk.toString()));
  proxy.stderr.on('data', (chunk: Buffer) => (proxyOutput += chunk.toString()));
  const proxyExited = new Promise((resolve) => proxy.once('exit', resolve));
  t.teardown(async () => {
    proxy.kill('SIGTERM');
    await proxyExited;
  });
  const viaProxy = (realm: string, auth: Credentials | null = owners[realm] ?? null): ApiClient =>
    new ApiClient(`http://127.0.0.1:${proxyPort}`, auth, realm === 'default' ? externalHost : `${realm}.${externalHost}`);
  const whoAmI = async (client: ApiClient): Promise<{ status: number; email: unknown }> => {
    const res = await client.get('/users/me');
    return { status: res.status, email: res.body['email'] };
  };
  await eventually(`HAProxy to answer (${proxyOutput})`, async () => {
    try {
      return (await viaProxy('default').get('/users/me')).status === 200 ? true : undefined;
    } catch {
      return undefined; // not listening yet
    }
  });

  t.test('every realm is served through the proxy by its own process', async (t) => {
    for (const realm of ['default', 'alpha', 'beta']) {
      t.strictSame(await whoAmI(viaProxy(realm)), { status: 200, email: owners[realm]?.email }, realm);
    }
    const unknown = await viaProxy('gamma', null).get('/users/me');
    t.strictSame(
      { status: unknown.status, body: unknown.body },
      { status: 404, body: { result: 'error', msg: 'Invalid subdomain', code: 'NONEXISTENT_SUBDOMAIN' } },
    );
  });

  t.test('realms stay isolated', async (t) => {
    const crossed = await viaProxy('beta', owners['alpha'] ?? null).get('/users/me');
    t.strictSame([crossed.status, crossed.body], [401, { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' }]);
    const direct = await new ApiClient(node1.baseUrl, owners['beta'] ?? null, `beta.${externalHost}`).get('/users/me');
    t.strictSame(
      { status: direct.status, body: direct.body },
      {
        status: 421,
        body: { result: 'error', msg: "The organization 'beta' is served by another server process", code: 'MISDIRECTED_REQUEST' },
      },
    );
  });

  t.test('a long-poll through the proxy gets its event', async (t) => {
    const beta = viaProxy('beta');
    const queueId = String((await beta.post('/register', { event_types: ['message'] })).body['queue_id']);
    const poll = beta.get('/events', { queue_id: queueId, last_event_id: -1 });
    // A round trip through the same process, so the poll above has most likely parked.
    await beta.get('/users/me');
    // register's apply_markdown is off by default: the event carries the raw content.
    const sent = await beta.post('/messages', { type: 'stream', to: 'general', topic: 'proxied', content: 'through HAProxy' });
    const answered = await poll;
    const events = answered.body['events'] as { type: string; message: { id: number; content: string } }[];
    t.strictSame(
      events.map((event) => ({ type: event.type, id: event.message.id, content: event.message.content })),
      [{ type: 'message', id: sent.body['id'], content: 'through HAProxy' }],
    );
  });

  t.test('a moved realm keeps its history and uploads; its clients register again', async (t) => {
    const alpha = viaProxy('alpha');
    const upload = await postFiles(
      alpha.baseUrl,
      '/user_uploads',
      owners['alpha'] ?? null,
      [{ field: 'file', filename: 'notes.txt', contentType: 'text/plain', data: Buffer.from('kept across the move') }],
      alpha.host,
    );
    const uri = String(upload.json()['uri']);
    const sent = await alpha.post('/messages', { type: 'stream', to: 'general', topic: 'before', content: `see [notes](${uri})` });
    const queueId = String((await alpha.post('/register', { event_types: ['message'] })).body['queue_id']);

    const moved = manage(
      ['move-realm', 'alpha', '--to', 'node2', '--haproxy-config', haproxyConfig, '--reload-command', `kill -USR2 ${proxy.pid}`, '--json'],
      env1,
    );
    t.equal(moved.stderr, '');
    const result = JSON.parse(moved.stdout) as { snapshot: string };
    t.strictSame(
      [moved.status, result],
      [0, { realm: 'alpha', from: 'node1', to: 'node2', bytes: fs.statSync(realmFile(dir2, 'alpha')).size, snapshot: result.snapshot }],
    );
    t.strictSame(readPlacement(placementFile).placement.realms, { default: 'node1', alpha: 'node2', beta: 'node2' });
    t.strictSame(
      [fs.existsSync(realmFile(dir1, 'alpha')), path.dirname(result.snapshot), fs.existsSync(result.snapshot)],
      [false, path.join(dir1, 'moved-realms'), true],
    );

    // HAProxy's new worker takes over shortly after the reload.
    await eventually('alpha to be routed to node2', async () => ((await whoAmI(alpha)).status === 200 ? true : undefined));
    const history = await alpha.get(`/messages/${String(sent.body['id'])}`);
    t.strictSame(
      [history.status, (history.body['message'] as { content: string }).content],
      [200, `<p>see <a href="${uri}">notes</a></p>`],
    );
    const file = await rawRequest(alpha.baseUrl, uri, { auth: owners['alpha'] ?? null, host: `alpha.${externalHost}` });
    t.strictSame([file.status, file.body.toString()], [200, 'kept across the move']);
    const stale = await alpha.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    t.strictSame(
      { status: stale.status, body: stale.body },
      { status: 400, body: { result: 'error', msg: `Bad event queue ID: ${queueId}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId } },
    );
    const registered = await alpha.post('/register', { event_types: ['message'] });
    t.equal(registered.status, 200, 'a client registers again');
    // Each process now answers for alpha as the new placement says.
    const onNode1 = await new ApiClient(node1.baseUrl, owners['alpha'] ?? null, alpha.host).get('/users/me');
    const onNode2 = await new ApiClient(node2.baseUrl, owners['alpha'] ?? null, alpha.host).get('/users/me');
    t.strictSame([onNode1.status, onNode2.status], [421, 200]);
  });

  t.test('the health checks found every process up', async (t) => {
    t.strictSame(
      proxyOutput.split('\n').filter((line) => /Server node_\S+ is DOWN/.test(line)),
      [],
    );
  });
});
