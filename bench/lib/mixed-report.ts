import type { ShardStatsSnapshot } from '../../workers/lib/shard-stats';
import { KINDS, type Kind, type Recorder } from './mixed-crowd';
import { percentile } from './parked-polls';

/** What one step of the `mixed` scenario measured. */
export interface StepFigures {
  people: number;
  streams: number;
  largestStream: number;
  seededSeconds: number;
  joinSeconds: number;
  registerP50Ms: number;
  registerP99Ms: number;
  wallSeconds: number;
  recorder: Recorder;
  lost: number;
  serverRssMiB: number;
  /** CPU seconds per second: 1.0 is one core busy. */
  serverCpuShare: number;
  generatorCpuShare: number;
  generatorLoopDelayP99Ms: number;
  generatorLoopDelayMaxMs: number;
  /** The generator's polling thread (bench/lib/mixed-polls.ts). */
  pollThreadLoopDelayP99Ms: number;
  pollThreadLoopDelayMaxMs: number;
  shard: ShardStatsSnapshot;
  /** The bucket bound under which 99% of each kind's answers fell, by the server's own clock. */
  serverP99Ms: Map<Kind, number>;
  /** The front-end thread's event-loop delay over the window (prom-client's: it samples every 10 ms, and an idle loop reads 10). */
  frontEndLoopDelayMs: { p99: number; max: number };
}

// Issue 24 §1: a step holds when every non-poll request's p99 is under 200 ms, delivery p99
// under 500 ms, with no error and nothing lost.
const REQUEST_P99_LIMIT_MS = 200;
const DELIVERY_P99_LIMIT_MS = 500;
// A generator this busy measures itself as much as the server.
const GENERATOR_CPU_LIMIT = 0.9;
const GENERATOR_DELAY_LIMIT_MS = 50;

const ms = (value: number): string => (Number.isNaN(value) ? '-' : value.toFixed(1));
const serverBound = (value: number | undefined): string =>
  value === undefined || Number.isNaN(value) ? '-' : Number.isFinite(value) ? String(value) : '> 90000';

/** Prints one step's figures; true when the step held. */
export function printStep(f: StepFigures): boolean {
  const reasons: string[] = [];
  console.log(
    `\n== ${f.people} people, ${f.streams} streams (largest ${f.largestStream} members); ` +
      `seeded in ${f.seededSeconds.toFixed(1)} s; joined in ${f.joinSeconds.toFixed(1)} s ` +
      `(register p50 ${ms(f.registerP50Ms)} ms, p99 ${ms(f.registerP99Ms)} ms)`,
  );
  // The last column: how long requests waited in the generator for one of its shared
  // connections (one request in flight on each), which the p99 includes; not the server's. And
  // the server's own p99, as the bound of its histogram bucket (from the front end's read of the
  // request to its answer's write): the rest of a p99 was spent outside the server.
  console.log(
    `   ${'kind'.padEnd(13)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'errors'.padStart(8)}` +
      `${'connection wait p99 ms'.padStart(24)}${'server p99 ≤ ms'.padStart(17)}`,
  );
  let errors = 0;
  for (const kind of KINDS) {
    if (kind === 'register') continue;
    const sorted = [...(f.recorder.latencies.get(kind) ?? [])].sort((a, b) => a - b);
    const failed = f.recorder.errors.get(kind) ?? 0;
    errors += failed;
    const p99 = percentile(sorted, 99);
    console.log(
      `   ${kind.padEnd(13)}${(sorted.length / f.wallSeconds).toFixed(1).padStart(9)}${ms(percentile(sorted, 50)).padStart(9)}` +
        `${ms(p99).padStart(9)}${String(failed).padStart(8)}` +
        `${ms(
          percentile(
            [...(f.recorder.connectionWaits.get(kind) ?? [])].sort((a, b) => a - b),
            99,
          ),
        ).padStart(24)}${serverBound(f.serverP99Ms.get(kind)).padStart(17)}`,
    );
    if (kind !== 'poll' && p99 >= REQUEST_P99_LIMIT_MS) reasons.push(`${kind} p99 ${ms(p99)} ms`);
  }
  const deliveries = [...f.recorder.deliveriesMs].sort((a, b) => a - b);
  const deliveryP99 = percentile(deliveries, 99);
  // The server's write of each answer, on the same clock: the rest is the generator's own
  // queueing, which 5,000 people on 5,000 machines would not share.
  const atServer = [...f.recorder.deliveriesAtServerMs].sort((a, b) => a - b);
  console.log(
    `   delivery (send → event, at every recipient): ${deliveries.length} deliveries, p50 ${ms(percentile(deliveries, 50))} ms, ` +
      `p99 ${ms(deliveryP99)} ms, lost ${f.lost}; as the server wrote them: p50 ${ms(percentile(atServer, 50))} ms, ` +
      `p99 ${ms(percentile(atServer, 99))} ms`,
  );
  if (deliveryP99 >= DELIVERY_P99_LIMIT_MS) reasons.push(`delivery p99 ${ms(deliveryP99)} ms`);
  if (errors > 0) reasons.push(`${errors} errors (${f.recorder.errorSamples.join(' | ')})`);
  if (f.lost > 0) reasons.push(`${f.lost} lost`);
  const loop = f.shard.loop_delay_ms;
  console.log(
    `   server: RSS ${f.serverRssMiB.toFixed(0)} MiB, CPU ${(f.serverCpuShare * 100).toFixed(0)}% of one core; ` +
      `shard event-loop delay p99 ${ms(loop.p99)} ms, max ${ms(loop.max)} ms; ` +
      `requests in the shard (arrival to answer, polls aside) p99 ${ms(f.shard.in_shard_ms.p99)} ms, max ${ms(f.shard.in_shard_ms.max)} ms`,
  );
  console.log(
    `   front end's event-loop delay (sampled every 10 ms; idle reads 10) p99 ${ms(f.frontEndLoopDelayMs.p99)} ms, max ${ms(f.frontEndLoopDelayMs.max)} ms`,
  );
  console.log(`   shard's longest synchronous stretches: ${f.shard.longest.map((s) => `${s.what} ${ms(s.ms)} ms`).join('; ')}`);
  console.log(`   shard's busiest work: ${f.shard.busiest.map((b) => `${b.what} ${b.total_ms} ms/${b.count}`).join('; ')}`);
  const saturated =
    f.generatorCpuShare > GENERATOR_CPU_LIMIT ||
    f.generatorLoopDelayP99Ms > GENERATOR_DELAY_LIMIT_MS ||
    f.pollThreadLoopDelayP99Ms > GENERATOR_DELAY_LIMIT_MS;
  console.log(
    `   load generator: CPU ${(f.generatorCpuShare * 100).toFixed(0)}% of one core (both threads), event-loop delay ` +
      `p99 ${ms(f.generatorLoopDelayP99Ms)} ms, max ${ms(f.generatorLoopDelayMaxMs)} ms; ` +
      `polling thread's p99 ${ms(f.pollThreadLoopDelayP99Ms)} ms, max ${ms(f.pollThreadLoopDelayMaxMs)} ms` +
      (saturated ? ' — SATURATED: the figures above measure the generator too' : ''),
  );
  const held = reasons.length === 0;
  console.log(`   ${f.people} people: ${held ? 'HOLDS' : `does not hold (${reasons.join('; ')})`}`);
  return held;
}
