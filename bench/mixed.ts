import fs from 'node:fs';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ShardStatsSnapshot } from '../workers/lib/shard-stats';
import { apiCall } from './lib/api';
import { Crowd, KIND_ROUTES, KINDS, MIXES, Recorder, type Kind, type Mix } from './lib/mixed-crowd';
import { printStep, type StepFigures } from './lib/mixed-report';
import { percentile, sleep } from './lib/parked-polls';
import { cpuSeconds, freePort, ownerAuthHeader, rssMiB, startChatServer } from './lib/processes';
import { scrapeDurations, scrapeServer, serverP99BoundMs } from './lib/server-durations';
import { runCopyOf, seededPeople } from './lib/seed-people';

/**
 * mixed (issue 24): how many simulated people, all connected and chatting at once, one server
 * holds. Each person keeps a poll parked and reads, marks read, reports presence and sends on
 * timers (bench/lib/mixed-crowd.ts); the number of people ramps in steps, each on its own
 * seeded realm (kept between runs), with a warm-up and then a measured window.
 *
 *   npm run bench mixed -- --steps 500,1000 --mix heavy --warmup 10 --seconds 30 --history 2000
 *
 * `--history N` seeds about N earlier messages per person, so the realm is one in use.
 */
interface Options {
  steps: number[];
  mix: Mix;
  warmupSeconds: number;
  seconds: number;
  /** Messages each person has received before the run (a realm in use); 0: a new realm. */
  history: number;
}

const GRACE_MS = 3_000;

function options(args: readonly string[]): Options {
  const value = (name: string): string | undefined => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const mix = MIXES[value('mix') ?? 'realistic'];
  if (!mix) throw new Error(`unknown mix; known: ${Object.keys(MIXES).join(', ')}`);
  return {
    steps: (value('steps') ?? '1000,2500,5000,8000').split(',').map(Number),
    mix,
    warmupSeconds: Number(value('warmup') ?? 10),
    seconds: Number(value('seconds') ?? 30),
    history: Number(value('history') ?? 0),
  };
}

async function step(people: number, opts: Options): Promise<StepFigures> {
  const seeding = performance.now();
  const realm = await seededPeople(people, opts.history);
  const seededSeconds = (performance.now() - seeding) / 1000;
  const dataDir = runCopyOf(realm);
  const metricsPort = await freePort();
  const server = await startChatServer({ TEST_HOOKS: '1', METRICS_PORT: String(metricsPort) }, dataDir);
  const recorder = new Recorder();
  const crowd = new Crowd(realm, server.port, opts.mix, recorder);
  const owner = ownerAuthHeader(dataDir);
  const shardStats = (reset: boolean): Promise<ShardStatsSnapshot> =>
    apiCall(server.url, owner, 'GET', '/__test__/shard_stats', { reset }) as unknown as Promise<ShardStatsSnapshot>;
  try {
    const joining = performance.now();
    const registerMs = await crowd.join();
    const joinSeconds = (performance.now() - joining) / 1000;
    crowd.start();
    await sleep(opts.warmupSeconds * 1000);
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    await shardStats(true);
    const durationsBefore = await scrapeDurations(metricsPort);
    const serverCpu = cpuSeconds(server.pid);
    const ownCpu = process.cpuUsage();
    const started = performance.now();
    crowd.measure(true);
    await sleep(opts.seconds * 1000);
    crowd.measure(false);
    const wallSeconds = (performance.now() - started) / 1000;
    const serverCpuShare = (cpuSeconds(server.pid) - serverCpu) / wallSeconds;
    const own = process.cpuUsage(ownCpu);
    const generatorCpuShare = (own.user + own.system) / 1e6 / wallSeconds;
    loopDelay.disable();
    const shard = await shardStats(true);
    const { durations: durationsAfter, frontEndLoopDelayMs } = await scrapeServer(metricsPort);
    const serverP99Ms = new Map<Kind, number>(
      KINDS.map((kind) => [kind, serverP99BoundMs(durationsBefore, durationsAfter, KIND_ROUTES[kind])]),
    );
    const rss = rssMiB(server.pid);
    crowd.stop();
    // Deliveries of the window's last sends may still be on their way.
    await sleep(GRACE_MS);
    const polls = await crowd.collectPolls();
    recorder.addPolls(polls);
    return {
      people,
      streams: realm.members.size,
      largestStream: Math.max(...[...realm.members.values()].map((m) => m.length)),
      seededSeconds,
      joinSeconds,
      registerP50Ms: percentile(registerMs, 50),
      registerP99Ms: percentile(registerMs, 99),
      wallSeconds,
      recorder,
      lost: polls.lost,
      serverRssMiB: rss,
      serverCpuShare,
      generatorCpuShare,
      generatorLoopDelayP99Ms: loopDelay.percentile(99) / 1e6,
      generatorLoopDelayMaxMs: loopDelay.max / 1e6,
      pollThreadLoopDelayP99Ms: polls.loopDelayP99Ms,
      pollThreadLoopDelayMaxMs: polls.loopDelayMaxMs,
      shard,
      serverP99Ms,
      frontEndLoopDelayMs,
    };
  } finally {
    await crowd.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(args: readonly string[] = []): Promise<void> {
  const opts = options(args);
  console.log(
    `mixed (${opts.mix.name} mix; steps ${opts.steps.join(', ')} people; ${opts.warmupSeconds} s warm-up, ` +
      `${opts.seconds} s measured; ${opts.history} messages of history a person; machine: ${os.cpus().length} cores, load generator included)`,
  );
  let held: number | null = null;
  for (const people of opts.steps) {
    const figures = await step(people, opts);
    if (printStep(figures)) held = people;
  }
  console.log(
    `mixed ${opts.mix.name}: largest step that held: ${held === null ? 'none' : `${held} people`} (${os.cpus().length} cores, load generator included)`,
  );
}

if (require.main === module) void run(process.argv.slice(2));
