import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { ShardPool } from '../realm/router';
import { realmsDir } from '../wire/realm-names';
import { RequestTally } from './request-tally';

const PREFIX = 'teamchat_';
// A shard that has not given its figures by then is reported down for this scrape.
const SHARD_STATS_TIMEOUT_MS = 1_000;
// From a cached page (~1 ms) to a long poll's heartbeat interval (60 s, SPEC §Limits).
const DURATION_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 90];
const REALM_FILE_SUFFIX = '.sqlite3'; // src/wire/realm-names.ts realmFile
// The route the API's message sends come through (api-notes: POST /messages)
const SEND_MESSAGE_ROUTE = 'POST /messages';

/** What the front end counts as each answer leaves (src/http/server.ts). */
export interface RequestMetrics {
  /** `route`: the route table's id, 'web' for the web client's files, null when no route matched. */
  answered(route: string | null, status: number, ms: number): void;
}

const DURATION_METRIC = `${PREFIX}http_request_duration_seconds`;
const DURATION_HELP = 'Time from a request to its answer, by route (long polls wait up to a heartbeat interval)';

/**
 * The server's Prometheus metrics (prom-client). Request figures are counted on the front-end
 * thread where each answer passes anyway, in plain numbers (src/metrics/request-tally.ts);
 * everything else is gathered only when scraped: the front end's books on each shard, one
 * stats round trip per shard for what only the shard knows, and the realm files' sizes.
 */
export class ServerMetrics implements RequestMetrics {
  readonly registry = new Registry();
  private readonly tally = new RequestTally(DURATION_BUCKETS_S);
  private messagesSent = 0;

  constructor(
    private readonly shards: ShardPool,
    private readonly dataDir: string,
  ) {
    const registers = [this.registry];
    const tally = this.tally;
    new Counter({
      name: `${PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by route and status',
      labelNames: ['route', 'status'],
      registers,
      collect() {
        this.reset();
        for (const { route, byStatus } of tally.tallies()) for (const [status, count] of byStatus) this.inc({ route, status }, count);
      },
    });
    const sent = (): number => this.messagesSent;
    new Counter({
      name: `${PREFIX}messages_sent_total`,
      help: 'Messages sent (POST /messages answered 200)',
      registers,
      collect() {
        this.reset();
        this.inc(sent());
      },
    });
    this.defineScrapedFigures();
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    this.countOpenFilesOffThread();
  }

  answered(route: string | null, status: number, ms: number): void {
    this.tally.add(route ?? 'unmatched', status, ms / 1000);
    if (status === 200 && route === SEND_MESSAGE_ROUTE) this.messagesSent++;
  }

  /** The Prometheus text of every metric, gathered now; the latency histogram comes from the tally. */
  async scrape(): Promise<string> {
    return (await this.registry.metrics()) + this.tally.histogramText(DURATION_METRIC, DURATION_HELP);
  }

  /**
   * prom-client's own `process_open_fds` lists /proc/self/fd synchronously, on the thread that
   * reads and answers every request: about 11 ms with 10,000 connections open, and the server
   * holds one or two per person online. The same figure, listed on libuv's thread pool.
   */
  private countOpenFilesOffThread(): void {
    const name = `${PREFIX}process_open_fds`;
    if (!this.registry.getSingleMetric(name)) return; // prom-client counts them on Linux only
    this.registry.removeSingleMetric(name);
    new Gauge({
      name,
      help: 'Number of open file descriptors.',
      registers: [this.registry],
      async collect() {
        const open = await openFileDescriptors();
        if (open !== null) this.set(open);
      },
    });
  }

  /**
   * The figures read at scrape time. Each shard's come from one round trip, shared by every
   * metric of that scrape (the first collect asks, the others wait for the same answer).
   */
  private defineScrapedFigures(): void {
    const registers = [this.registry];
    const shardLabel = ['shard'] as const;
    let round: Promise<void> | null = null;
    const gauges = new Map<string, Gauge<'shard'>>();
    const counters = new Map<string, Counter<'shard'>>();
    const gather = async (): Promise<void> => {
      const figures = this.shards.figures();
      const stats = await this.shards.statsEach(SHARD_STATS_TIMEOUT_MS);
      for (const gauge of gauges.values()) gauge.reset();
      for (const counter of counters.values()) counter.reset();
      const set = (name: string, shard: number, value: number): void => {
        const labels = { shard: String(shard) };
        gauges.get(name)?.set(labels, value);
        counters.get(name)?.inc(labels, value);
      };
      for (const figure of figures) {
        const own = stats[figure.index] ?? null;
        set('shard_up', figure.index, figure.up && own !== null ? 1 : 0);
        set('shard_pending_requests', figure.index, figure.queued);
        set('shard_busy_seconds_total', figure.index, figure.busyMs / 1000);
        set('shard_restarts_total', figure.index, figure.restarts);
        if (!own) continue;
        set('shard_event_queues', figure.index, own.eventQueues);
        set('shard_parked_polls', figure.index, own.parkedPolls);
        set('shard_open_realms', figure.index, own.openRealms);
        set('render_pool_threads', figure.index, own.render.threads);
        set('render_pool_queued_tasks', figure.index, own.render.queued);
        set('render_pool_utilization', figure.index, own.render.utilization);
        set('render_pool_completed_tasks_total', figure.index, own.render.completed);
        set('snapshots_written_total', figure.index, own.snapshotsWritten);
        set('snapshots_failed_total', figure.index, own.snapshotsFailed);
      }
    };
    // Every scraped metric starts the round if none is under way, and waits for it.
    const collect = (): Promise<void> => {
      round ??= gather().finally(() => setImmediate(() => (round = null)));
      return round;
    };
    const gauge = (name: string, help: string): void => {
      gauges.set(name, new Gauge({ name: `${PREFIX}${name}`, help, labelNames: shardLabel, registers, collect }));
    };
    const counter = (name: string, help: string): void => {
      counters.set(name, new Counter({ name: `${PREFIX}${name}`, help, labelNames: shardLabel, registers, collect }));
    };
    gauge('shard_up', '1 when the shard thread answered this scrape, else 0');
    gauge('shard_pending_requests', 'Requests sent to the shard and not yet answered, parked polls aside');
    counter('shard_busy_seconds_total', "Time the shard's thread spent running code rather than waiting (all its restarts included)");
    counter('shard_restarts_total', 'Times the shard thread ended unexpectedly and was restarted');
    gauge('shard_event_queues', "Event queues held by the shard's realms");
    gauge('shard_parked_polls', 'GET /events requests parked at the shard, waiting for news');
    gauge('shard_open_realms', 'Realms the shard has open');
    gauge('render_pool_threads', "Threads of the shard's Markdown render pool (0: rendering on the shard thread)");
    gauge('render_pool_queued_tasks', 'Render tasks waiting for a pool thread');
    gauge('render_pool_utilization', 'Share of time the render pool threads were busy, 0 to 1');
    counter('render_pool_completed_tasks_total', 'Render tasks finished by the pool since the shard thread started');
    counter('snapshots_written_total', 'Periodic realm snapshots written since the shard thread started');
    counter('snapshots_failed_total', 'Periodic realm snapshots that failed since the shard thread started');
    const dataDir = this.dataDir;
    new Gauge({
      name: `${PREFIX}realm_file_bytes`,
      help: 'Size of each realm file, its write-ahead log included',
      labelNames: ['realm'],
      registers,
      async collect() {
        this.reset();
        for (const [realm, bytes] of await realmFileSizes(dataDir)) this.set({ realm }, bytes);
      },
    });
  }
}

/** The entries of /proc/self/fd, the one open to list them aside; null where there is no such directory. */
async function openFileDescriptors(): Promise<number | null> {
  const entries = await readdir('/proc/self/fd').catch(() => null);
  return entries === null ? null : entries.length - 1;
}

/** Each realm file's size, its -wal file included (recent writes live there until a checkpoint). */
async function realmFileSizes(dataDir: string): Promise<Map<string, number>> {
  const dir = realmsDir(dataDir);
  const sizes = new Map<string, number>();
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.endsWith(REALM_FILE_SUFFIX)) continue;
    const realm = name.slice(0, -REALM_FILE_SUFFIX.length);
    let bytes = 0;
    for (const file of [name, `${name}-wal`]) {
      const found = await stat(path.join(dir, file)).catch(() => null);
      bytes += found?.size ?? 0;
    }
    sizes.set(realm, bytes);
  }
  return sizes;
}
