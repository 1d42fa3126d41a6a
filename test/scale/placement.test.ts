import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { loadConfig } from '../../src/config';
import { PlacementError, readPlacement, ServedRealms, writePlacement, type Placement } from '../../src/realm/placement';
import { realmFile } from '../../src/wire/realm-names';
import { ApiClient } from '../helpers/http';
import { manage } from '../helpers/manage';
import { createRealmOn, nodeEnv, replace } from '../helpers/placement';
import { freePort, startServer, tempDataDir } from '../helpers/server';

const MISDIRECTED = (realm: string): Record<string, unknown> => ({
  result: 'error',
  msg: `The organization '${realm}' is served by another server process`,
  code: 'MISDIRECTED_REQUEST',
});
const NONEXISTENT = { result: 'error', msg: 'Invalid subdomain', code: 'NONEXISTENT_SUBDOMAIN' };

t.test('REALMS and PLACEMENT_FILE are checked with the rest of the configuration', async (t) => {
  t.strictSame(loadConfig({}).placement, { kind: 'all' });
  t.strictSame(loadConfig({ REALMS: 'default, Acme' }).placement, { kind: 'list', realms: ['default', 'acme'] });
  t.strictSame(loadConfig({ PLACEMENT_FILE: '/etc/p.json', NODE_NAME: 'n1' }).placement, { kind: 'file', file: '/etc/p.json', node: 'n1' });
  t.throws(() => loadConfig({ REALMS: 'ok,not_a_realm' }), { message: /REALMS=.*comma-separated realm names/ });
  t.throws(() => loadConfig({ PLACEMENT_FILE: '/etc/p.json' }), { message: /NODE_NAME: required with PLACEMENT_FILE/ });
  t.throws(() => loadConfig({ NODE_NAME: 'n1' }), { message: /NODE_NAME: only meaningful with PLACEMENT_FILE/ });
  t.throws(() => loadConfig({ REALMS: 'a', PLACEMENT_FILE: '/etc/p.json', NODE_NAME: 'n1' }), { message: /set one of them, not both/ });
});

t.test('a placement file is refused with every problem named', async (t) => {
  const dir = tempDataDir();
  const file = path.join(dir, 'placement.json');
  fs.writeFileSync(file, JSON.stringify({ nodes: { n1: 'nowhere' }, realms: { Bad_Name: 'n1', acme: 'n9' }, extra: 1 }));
  const error = t.throws(() => new ServedRealms({ kind: 'file', file, node: 'n1' })) as PlacementError;
  t.ok(error instanceof PlacementError);
  t.strictSame(error.message.split('\n'), [
    `${file}: nodes.n1.address: must be host:port`,
    `${file}: realms.Bad_Name: must be a realm name (a subdomain)`,
    `${file}: (top): Unrecognized key: "extra"`,
  ]);
  fs.writeFileSync(file, JSON.stringify({ nodes: { n1: '127.0.0.1:1' }, realms: { acme: 'n9' }, moving: ['beta'] }));
  t.throws(() => new ServedRealms({ kind: 'file', file, node: 'n1' }), {
    message: `${file}: realms.acme: names node 'n9', which "nodes" does not list\n${file}: moving: 'beta' is not placed`,
  });
  fs.writeFileSync(file, JSON.stringify({ nodes: { n1: '127.0.0.1:1' }, realms: {} }));
  t.throws(() => new ServedRealms({ kind: 'file', file, node: 'n2' }), { message: `${file}: NODE_NAME 'n2' is not one of its nodes (n1)` });
});

t.test('with REALMS, a process answers other realms 421', async (t) => {
  const server = await startServer({ env: { REALMS: 'default' } });
  t.teardown(() => server.stop());
  const acme = new ApiClient(server.baseUrl, server.owner, `acme.localhost:${server.port}`);
  const res = await acme.get('/users/me');
  t.strictSame({ status: res.status, body: res.body }, { status: 421, body: MISDIRECTED('acme') });
  const own = await new ApiClient(server.baseUrl, server.owner).get('/users/me');
  t.strictSame({ status: own.status, email: own.body['email'] }, { status: 200, email: server.owner.email });
});

t.test('a placement file: served, elsewhere, nowhere, moving, and SIGHUP', async (t) => {
  const work = tempDataDir();
  const dataDir = path.join(work, 'node1');
  const port = await freePort();
  const externalHost = `localhost:${port}`;
  const placementFile = path.join(work, 'placement.json');
  const placement: Placement = {
    bind: null,
    nodes: { node1: { address: `127.0.0.1:${port}`, dataDir: null }, node2: { address: '127.0.0.1:1', dataDir: null } },
    realms: { default: 'node1', alpha: 'node1', beta: 'node2' },
    moving: [],
  };
  writePlacement(placementFile, placement);
  const env = nodeEnv('node1', dataDir, placementFile, externalHost);

  await t.test('create-realm makes only the realms placed on its node', async (t) => {
    const elsewhere = manage(['create-realm', '--subdomain', 'beta', '--name', 'B', '--owner-email', 'b@b.test'], env);
    const nowhere = manage(['create-realm', '--subdomain', 'gamma', '--name', 'G', '--owner-email', 'g@g.test'], env);
    t.strictSame(
      [elsewhere.status, elsewhere.stderr.split('\n')[0], nowhere.status, nowhere.stderr.split('\n')[0]],
      [
        2,
        `error: realm 'beta' is not served by this process (node 'node1' of ${placementFile}): create it where it is placed`,
        2,
        `error: realm 'gamma' is not in the placement file: add "gamma": "<node>" to its "realms" first`,
      ],
    );
    t.strictSame([fs.existsSync(realmFile(dataDir, 'beta')), fs.existsSync(realmFile(dataDir, 'gamma'))], [false, false]);
  });
  const alphaOwner = createRealmOn('alpha', env);
  const server = await startServer({ port, dataDir, env });
  t.teardown(() => server.stop());
  const client = (realm: string): ApiClient => new ApiClient(server.baseUrl, alphaOwner, `${realm}.${externalHost}`);

  const served = await client('alpha').get('/users/me');
  t.strictSame({ status: served.status, email: served.body['email'] }, { status: 200, email: alphaOwner.email });
  const elsewhere = await client('beta').get('/users/me');
  t.strictSame({ status: elsewhere.status, body: elsewhere.body }, { status: 421, body: MISDIRECTED('beta') });
  const nowhere = await client('gamma').get('/users/me');
  t.strictSame({ status: nowhere.status, body: nowhere.body }, { status: 404, body: NONEXISTENT });
  const head = await client('beta').call('HEAD', '/users/me');
  t.strictSame({ status: head.status, text: head.text }, { status: 421, text: '' });

  // A queue with a parked poll, on the realm about to be let go
  const registered = await client('alpha').post('/register', { event_types: ['message'] });
  const queueId = String(registered.body['queue_id']);
  const parked = client('alpha').get('/events', { queue_id: queueId, last_event_id: -1 });
  // A round trip through the same shard, so the poll above has most likely parked.
  await client('alpha').get('/users/me');

  await replace(placementFile, { ...placement, moving: ['alpha'] }, server);
  const answered = await parked;
  t.strictSame({ status: answered.status, body: answered.body }, { status: 200, body: { result: 'success', msg: '', events: [] } });
  const moving = await client('alpha').get('/users/me');
  t.strictSame(
    { status: moving.status, retryAfter: moving.headers['retry-after'], body: moving.body },
    {
      status: 503,
      retryAfter: '5',
      body: {
        result: 'error',
        msg: "The organization 'alpha' is moving to another server process; try again in a moment",
        code: 'REALM_MOVING',
      },
    },
  );

  await replace(placementFile, { ...placement, realms: { ...placement.realms, alpha: 'node2' } }, server);
  const gone = await client('alpha').get('/users/me');
  t.strictSame({ status: gone.status, body: gone.body }, { status: 421, body: MISDIRECTED('alpha') });

  // Back again: the realm serves its data, but the queues it had were dropped when it left.
  await replace(placementFile, placement, server);
  const back = await client('alpha').get('/users/me');
  t.strictSame({ status: back.status, email: back.body['email'] }, { status: 200, email: alphaOwner.email });
  const stale = await client('alpha').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
  t.strictSame(
    { status: stale.status, body: stale.body },
    { status: 400, body: { result: 'error', msg: `Bad event queue ID: ${queueId}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId } },
  );

  // A bad placement file is logged and changes nothing.
  fs.writeFileSync(placementFile, '{"nodes": ');
  server.process.kill('SIGHUP');
  await server.logLine((line) => line.includes('placement not reloaded'));
  const still = await client('alpha').get('/users/me');
  t.equal(still.status, 200);
});

t.test('proxy-config: Host routing, readiness checks and long-poll timeouts from the placement', async (t) => {
  const dir = tempDataDir();
  const placementFile = path.join(dir, 'placement.json');
  writePlacement(placementFile, {
    bind: null,
    nodes: { n1: { address: '10.0.0.1:9991', dataDir: null }, n2: { address: '10.0.0.2:9991', dataDir: null } },
    realms: { default: 'n1', acme: 'n2', zeta: 'n1' },
    moving: [],
  });
  const env = { EXTERNAL_HOST: 'chat.example.org', HEARTBEAT_INTERVAL_MS: '60000', SHARD_REQUEST_TIMEOUT_MS: '30000' };
  const written = manage(['proxy-config', '--placement', placementFile], env);
  t.equal(written.status, 0);
  const lines = written.stdout.split('\n').map((line) => line.trim());
  t.strictSame(
    lines.filter((line) => /^(bind|acl|use_backend|default_backend|backend|server|http-check|timeout (client|server))\b/.test(line)),
    [
      'timeout client 95s',
      'timeout server 95s',
      'bind *:80',
      'acl on_n2 req.hdr(host),lower -m str acme.chat.example.org',
      'acl on_n1 req.hdr(host),lower -m str chat.example.org',
      'acl on_n1 req.hdr(host),lower -m str zeta.chat.example.org',
      'use_backend node_n1 if on_n1',
      'use_backend node_n2 if on_n2',
      'default_backend node_n1',
      'backend node_n1',
      'http-check send meth GET uri /health?ready=1 ver HTTP/1.1 hdr Host 10.0.0.1:9991',
      'http-check expect status 200',
      'server n1 10.0.0.1:9991 check inter 2s fall 2 rise 1',
      'backend node_n2',
      'http-check send meth GET uri /health?ready=1 ver HTTP/1.1 hdr Host 10.0.0.2:9991',
      'http-check expect status 200',
      'server n2 10.0.0.2:9991 check inter 2s fall 2 rise 1',
    ],
  );
  const bound = manage(['proxy-config', '--placement', placementFile, '--bind', '127.0.0.1:8080'], env);
  t.ok(bound.stdout.includes('\n    bind 127.0.0.1:8080\n'));

  const missing = manage(['proxy-config'], env);
  t.strictSame([missing.status, missing.stderr.split('\n')[0]], [2, 'error: --placement FILE is required (or set PLACEMENT_FILE)']);
  fs.writeFileSync(placementFile, '[]');
  const bad = manage(['proxy-config', '--placement', placementFile], env);
  t.strictSame([bad.status, bad.stderr], [2, `error: ${placementFile}: (top): Invalid input: expected object, received array\n`]);
  const help = manage(['proxy-config', '--help'], env);
  t.strictSame(
    [help.status, help.stdout.split('\n')[0]],
    [0, 'usage: npm run manage -- proxy-config [--placement FILE] [--bind ADDR:PORT] [--out FILE]'],
  );
});

t.test('move-realm refuses what it cannot do, and changes nothing', async (t) => {
  const dir = tempDataDir();
  const placementFile = path.join(dir, 'placement.json');
  const placement: Placement = {
    bind: null,
    nodes: { n1: { address: '127.0.0.1:1', dataDir: path.join(dir, 'n1') }, n2: { address: '127.0.0.1:2', dataDir: null } },
    realms: { default: 'n1' },
    moving: [],
  };
  writePlacement(placementFile, placement);
  const before = fs.readFileSync(placementFile, 'utf8');
  const env = { PLACEMENT_FILE: placementFile, NODE_NAME: 'n1', DATA_DIR: path.join(dir, 'n1') };
  const cases: [string[], number, string][] = [
    [['move-realm'], 2, 'error: the realm to move is required: move-realm R --to NODE'],
    [['move-realm', 'default'], 2, 'error: --to NODE is required'],
    [['move-realm', 'default', '--to', 'n1', '--reload-command', 'true'], 2, 'error: --reload-command needs --haproxy-config'],
    [['move-realm', 'acme', '--to', 'n2'], 1, `error: realm 'acme' is not in the placement ${placementFile}`],
    [['move-realm', 'default', '--to', 'n3'], 1, `error: --to 'n3' is not a node of ${placementFile}`],
    [['move-realm', 'default', '--to', 'n1'], 1, "error: realm 'default' is already on node 'n1'"],
    [
      ['move-realm', 'default', '--to', 'n2'],
      1,
      `error: node 'n2' has no "dataDir" in the placement: move-realm copies realm files between data directories it can reach`,
    ],
  ];
  for (const [args, status, line] of cases) {
    const result = manage(args, env);
    t.strictSame([result.status, result.stderr.split('\n')[0]], [status, line], args.join(' '));
  }
  t.equal(fs.readFileSync(placementFile, 'utf8'), before);
});

t.test('move-realm whose HAProxy reload fails still ends on the new node, and says so', async (t) => {
  const work = tempDataDir();
  const [dir1, dir2] = [path.join(work, 'n1'), path.join(work, 'n2')];
  const port = await freePort();
  const externalHost = `localhost:${port}`;
  const placementFile = path.join(work, 'placement.json');
  const haproxyConfig = path.join(work, 'haproxy.cfg');
  fs.writeFileSync(haproxyConfig, '# replaced by move-realm\n');
  writePlacement(placementFile, {
    bind: '127.0.0.1:1',
    nodes: { n1: { address: `127.0.0.1:${port}`, dataDir: dir1 }, n2: { address: '127.0.0.1:2', dataDir: dir2 } },
    realms: { default: 'n1', alpha: 'n1' },
    moving: [],
  });
  const env = nodeEnv('n1', dir1, placementFile, externalHost);
  const owner = createRealmOn('alpha', env);
  const server = await startServer({ port, dataDir: dir1, env });
  t.teardown(() => server.stop());
  const alpha = new ApiClient(server.baseUrl, owner, `alpha.${externalHost}`);
  t.equal((await alpha.get('/users/me')).status, 200);

  const moved = manage(['move-realm', 'alpha', '--to', 'n2', '--haproxy-config', haproxyConfig, '--reload-command', 'exit 3'], env);
  t.strictSame(
    [moved.status, moved.stderr],
    [
      1,
      "error: moved 'alpha' to 'n2', but HAProxy was not reloaded (the reload command failed (exit 3): ): fix it, then run proxy-config and reload it\n",
    ],
  );
  t.strictSame(readPlacement(placementFile).placement.realms, { default: 'n1', alpha: 'n2' });
  t.strictSame(readPlacement(placementFile).placement.moving, []);
  t.strictSame([fs.existsSync(realmFile(dir1, 'alpha')), fs.existsSync(realmFile(dir2, 'alpha'))], [false, true]);
  t.ok(fs.readFileSync(haproxyConfig, 'utf8').includes(`acl on_n2 req.hdr(host),lower -m str alpha.${externalHost}`));
  const gone = await alpha.get('/users/me');
  t.strictSame({ status: gone.status, body: gone.body }, { status: 421, body: MISDIRECTED('alpha') });
});
