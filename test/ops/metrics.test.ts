import net from 'node:net';
import os from 'node:os';
import t from 'tap';
import { shardIndexFor } from '../../src/realm/router';
import { ApiClient, request } from '../helpers/http';
import { scrape, series, total, type Scrape } from '../helpers/metrics';
import { freePort, startServer } from '../helpers/server';

// GET /metrics on the loopback-only METRICS_PORT (issue 23 "Observability"): the names a
// dashboard relies on, and figures that move by exactly what the traffic did.

const SERVED_METRICS: [name: string, type: string][] = [
  ['teamchat_http_request_duration_seconds', 'histogram'],
  ['teamchat_http_requests_total', 'counter'],
  ['teamchat_messages_sent_total', 'counter'],
  ['teamchat_realm_file_bytes', 'gauge'],
  ['teamchat_render_pool_completed_tasks_total', 'counter'],
  ['teamchat_render_pool_queued_tasks', 'gauge'],
  ['teamchat_render_pool_threads', 'gauge'],
  ['teamchat_render_pool_utilization', 'gauge'],
  ['teamchat_shard_busy_seconds_total', 'counter'],
  ['teamchat_shard_event_queues', 'gauge'],
  ['teamchat_shard_open_realms', 'gauge'],
  ['teamchat_shard_parked_polls', 'gauge'],
  ['teamchat_shard_pending_requests', 'gauge'],
  ['teamchat_shard_restarts_total', 'counter'],
  ['teamchat_shard_up', 'gauge'],
  ['teamchat_snapshots_failed_total', 'counter'],
  ['teamchat_snapshots_written_total', 'counter'],
];

t.test('metrics', async (t) => {
  const metricsPort = await freePort();
  const server = await startServer({ env: { METRICS_PORT: String(metricsPort), SHARDS: '2', RENDER_THREADS: '1' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const shard = String(shardIndexFor('default', 2));
  const value = (scraped: Scrape, name: string, labels: Record<string, string> = {}): number =>
    scraped.samples.get(series(name, labels)) ?? 0;

  /** Scrapes until `done` holds for a scrape (figures a shard reports may lag a request's answer). */
  async function scrapeUntil(done: (scraped: Scrape) => boolean): Promise<Scrape> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const scraped = await scrape(metricsPort);
      if (done(scraped) || Date.now() > deadline) return scraped;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  t.test('the public port does not serve them', async (t) => {
    const res = await request({ baseUrl: server.baseUrl, method: 'GET', path: '/metrics' });
    t.strictSame([res.status, res.body], [404, { result: 'error', msg: 'Not found' }]);
  });

  t.test('the metrics port answers only GET /metrics, with JSON errors otherwise', async (t) => {
    const other = await scrape(metricsPort, '/');
    t.strictSame([other.status, JSON.parse(other.text)], [404, { result: 'error', msg: 'Not found' }]);
    const post = await scrape(metricsPort, '/metrics', 'POST');
    t.strictSame(
      [post.status, JSON.parse(post.text)],
      [405, { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'HEAD'] }],
    );
  });

  t.test('the metric names and types', async (t) => {
    const scraped = await scrape(metricsPort);
    t.strictSame([scraped.status, scraped.contentType], [200, 'text/plain; version=0.0.4; charset=utf-8']);
    const ours = [...scraped.types].filter(([name]) => !/^teamchat_(process|nodejs)_/.test(name)).sort(([a], [b]) => a.localeCompare(b));
    t.strictSame(ours, SERVED_METRICS);
    t.ok(scraped.types.has('teamchat_process_resident_memory_bytes'), "and the process's own (prom-client's defaults)");
    t.strictSame([value(scraped, 'teamchat_shard_up', { shard: '0' }), value(scraped, 'teamchat_shard_up', { shard: '1' })], [1, 1]);
    t.strictSame(value(scraped, 'teamchat_render_pool_threads', { shard }), 1, 'RENDER_THREADS=1: one render thread');
    t.ok(value(scraped, 'teamchat_realm_file_bytes', { realm: 'default' }) > 0, 'the default realm file has a size');
  });

  t.test("the process's open files count its connections, and close with them", async (t) => {
    // The server opens and closes files of its own meanwhile (a scrape's connection, a realm's
    // journal), so the figure must move by most of the connections, not exactly by them.
    const CONNECTIONS = 300;
    const COUNTED_AT_LEAST = 200;
    const openFiles = async (): Promise<number> => value(await scrape(metricsPort), 'teamchat_process_open_fds');
    const before = await openFiles();
    t.ok(before > 0, `some files open before: ${before}`);
    // Each connection is answered once, so the server has surely accepted it.
    const sockets = await Promise.all(Array.from({ length: CONNECTIONS }, () => answeredConnection(server.baseUrl)));
    const during = await openFiles();
    for (const socket of sockets) socket.destroy();
    const after = await scrapeUntil((scraped) => value(scraped, 'teamchat_process_open_fds') <= during - COUNTED_AT_LEAST);
    t.ok(during - before >= COUNTED_AT_LEAST, `${CONNECTIONS} connections counted: ${before} before, ${during} during`);
    t.ok(value(after, 'teamchat_process_open_fds') <= during - COUNTED_AT_LEAST, 'and fewer once they closed');
  });

  t.test('a message sent moves the counters by exactly one', async (t) => {
    const sendRoute = { route: 'POST /messages' };
    const before = await scrape(metricsPort);
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'metrics', content: 'counted once' });
    t.equal(sent.status, 200, sent.text);
    const refused = await api.post('/messages', { type: 'stream', to: 'no such stream', topic: 'metrics', content: 'refused' });
    t.equal(refused.status, 400, refused.text);
    const after = await scrapeUntil(
      (s) => total(s, 'teamchat_render_pool_completed_tasks_total') > total(before, 'teamchat_render_pool_completed_tasks_total'),
    );
    const moved = (name: string, labels: Record<string, string> = {}): number => value(after, name, labels) - value(before, name, labels);
    t.strictSame(
      {
        sent: moved('teamchat_messages_sent_total'),
        ok: moved('teamchat_http_requests_total', { ...sendRoute, status: '200' }),
        badRequest: moved('teamchat_http_requests_total', { ...sendRoute, status: '400' }),
        timed: moved('teamchat_http_request_duration_seconds_count', sendRoute),
      },
      { sent: 1, ok: 1, badRequest: 1, timed: 2 },
    );
    t.ok(
      total(after, 'teamchat_render_pool_completed_tasks_total') > total(before, 'teamchat_render_pool_completed_tasks_total'),
      'the pool rendered it',
    );
  });

  t.test('event queues and parked polls per shard', async (t) => {
    const before = await scrape(metricsPort);
    const registered = await api.post('/register', { event_types: ['message'] });
    const queueId = String(registered.body['queue_id']);
    const poll = api.get('/events', { queue_id: queueId, last_event_id: -1 });
    const parked = await scrapeUntil((s) => value(s, 'teamchat_shard_parked_polls', { shard }) === 1);
    t.strictSame(
      {
        queues: value(parked, 'teamchat_shard_event_queues', { shard }) - value(before, 'teamchat_shard_event_queues', { shard }),
        parked: value(parked, 'teamchat_shard_parked_polls', { shard }),
        pending: value(parked, 'teamchat_shard_pending_requests', { shard }),
      },
      { queues: 1, parked: 1, pending: 0 },
      'a parked poll is counted as parked, not as pending work',
    );
    await api.post('/messages', { type: 'stream', to: 'general', topic: 'metrics', content: 'wakes the poll' });
    t.equal((await poll).status, 200);
    const woken = await scrapeUntil((s) => value(s, 'teamchat_shard_parked_polls', { shard }) === 0);
    t.equal(value(woken, 'teamchat_shard_parked_polls', { shard }), 0);
  });

  t.test("a shard's busy time and restarts", async (t) => {
    const before = await scrape(metricsPort);
    const spun = await api.post('/__test__/spin', { ms: 300 });
    t.equal(spun.status, 200);
    const busy = await scrape(metricsPort);
    const busyMoved =
      value(busy, 'teamchat_shard_busy_seconds_total', { shard }) - value(before, 'teamchat_shard_busy_seconds_total', { shard });
    t.ok(busyMoved >= 0.3, `300 ms of spinning counted as busy (moved ${busyMoved.toFixed(3)} s)`);
    const crashed = await api.post('/__test__/crash_shard');
    t.equal(crashed.status, 503);
    const back = await scrapeUntil((s) => value(s, 'teamchat_shard_up', { shard }) === 1);
    t.strictSame(
      [
        value(back, 'teamchat_shard_restarts_total', { shard }) - value(before, 'teamchat_shard_restarts_total', { shard }),
        value(back, 'teamchat_shard_up', { shard }),
      ],
      [1, 1],
    );
    t.ok(
      value(back, 'teamchat_shard_busy_seconds_total', { shard }) >= value(busy, 'teamchat_shard_busy_seconds_total', { shard }),
      "busy time keeps the ended thread's share",
    );
  });

  // An address of this machine other than loopback, when it has one
  const outside = Object.values(os.networkInterfaces())
    .flat()
    .find((address) => address && !address.internal && address.family === 'IPv4');
  t.test('the metrics port listens on loopback only', { skip: outside ? false : 'this machine has no address but loopback' }, async (t) => {
    const address = outside?.address ?? '';
    const error = await new Promise<string>((resolve) => {
      const socket = net.connect(metricsPort, address);
      socket.once('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
    t.equal(error, 'ECONNREFUSED', `not reachable at ${address}`);
  });
});

/** A keep-alive connection to the public port after one answer on it. */
function answeredConnection(baseUrl: string): Promise<net.Socket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`GET /api/v1/server_settings HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
    });
    socket.once('data', () => resolve(socket));
    socket.once('error', reject);
  });
}
