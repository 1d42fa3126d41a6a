import {
  constants,
  createHistogram,
  monitorEventLoopDelay,
  PerformanceObserver,
  type IntervalHistogram,
  type RecordableHistogram,
} from 'node:perf_hooks';

/**
 * What kept a shard thread busy, for the capacity benchmark (bench/mixed.ts): its event-loop
 * delay and its longest synchronous stretches, each named by what ran. Off unless the server
 * runs with test hooks (TEST_HOOKS=1, which only tests and benchmarks set); when off, `time`
 * costs one branch. Garbage-collection pauses are stretches of their own (`gc major`, `gc minor`
 * ...), also counted inside whatever stretch they interrupted: a handler that shows as long may
 * have been the one a pause fell in.
 */
export interface Stretch {
  what: string;
  ms: number;
}

export interface ShardStatsSnapshot {
  loop_delay_ms: { p50: number; p99: number; max: number };
  /** Requests other than long polls, from reaching the thread to their answer leaving it. */
  in_shard_ms: { p50: number; p99: number; max: number };
  /** The longest synchronous stretches since the last reset, longest first. */
  longest: Stretch[];
  /** Synchronous time by what ran, the busiest first. */
  busiest: { what: string; count: number; total_ms: number }[];
}

const KEPT_STRETCHES = 12;
const KEPT_BUSIEST = 12;
// The histogram samples the loop every few ms; finer costs more and says little more.
const RESOLUTION_MS = 2;

class ShardStats {
  private histogram: IntervalHistogram | null = null;
  private longest: Stretch[] = [];
  private readonly totals = new Map<string, { count: number; totalMs: number }>();
  private gcObserver: PerformanceObserver | null = null;
  private readonly inShard: RecordableHistogram = createHistogram();
  private readonly arrivedAt = new Map<number, number>();

  get enabled(): boolean {
    return this.histogram !== null;
  }

  enable(): void {
    if (this.histogram) return;
    this.histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    this.histogram.enable();
    this.gcObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) this.recordDuration(`gc ${gcKind((entry as { detail?: unknown }).detail)}`, entry.duration);
    });
    this.gcObserver.observe({ entryTypes: ['gc'] });
  }

  /** Records one synchronous stretch that started at `startMs` (performance.now()). */
  record(what: string, startMs: number): void {
    this.recordDuration(what, performance.now() - startMs);
  }

  private recordDuration(what: string, ms: number): void {
    let total = this.totals.get(what);
    if (!total) this.totals.set(what, (total = { count: 0, totalMs: 0 }));
    total.count++;
    total.totalMs += ms;
    const shortest = this.longest[this.longest.length - 1];
    if (this.longest.length >= KEPT_STRETCHES && shortest !== undefined && shortest.ms >= ms) return;
    this.longest.push({ what, ms });
    this.longest.sort((a, b) => b.ms - a.ms);
    if (this.longest.length > KEPT_STRETCHES) this.longest.pop();
  }

  /** A request reached the thread (ignored when off). */
  arrived(id: number): void {
    if (this.histogram) this.arrivedAt.set(id, performance.now());
  }

  /** A request's answer leaves the thread; a request never noted as arrived is ignored. */
  answered(id: number): void {
    const at = this.arrivedAt.get(id);
    if (at === undefined) return;
    this.arrivedAt.delete(id);
    this.inShard.record(Math.max(1, Math.round((performance.now() - at) * 1e6)));
  }

  /** Runs `work`, recording its synchronous time as `what` when enabled. */
  time<T>(what: () => string, work: () => T): T {
    if (!this.histogram) return work();
    const start = performance.now();
    try {
      return work();
    } finally {
      this.record(what(), start);
    }
  }

  snapshot(reset: boolean): ShardStatsSnapshot {
    const histogram = this.histogram;
    const toMs = (ns: number): number => Math.round(ns / 1e4) / 100;
    const figures = (h: IntervalHistogram | RecordableHistogram | null) =>
      h && h.count > 0 ? { p50: toMs(h.percentile(50)), p99: toMs(h.percentile(99)), max: toMs(h.max) } : { p50: 0, p99: 0, max: 0 };
    const snapshot: ShardStatsSnapshot = {
      loop_delay_ms: figures(histogram),
      in_shard_ms: figures(this.inShard),
      longest: this.longest.map((s) => ({ what: s.what, ms: Math.round(s.ms * 100) / 100 })),
      busiest: [...this.totals.entries()]
        .map(([what, t]) => ({ what, count: t.count, total_ms: Math.round(t.totalMs) }))
        .sort((a, b) => b.total_ms - a.total_ms)
        .slice(0, KEPT_BUSIEST),
    };
    if (reset) {
      histogram?.reset();
      this.inShard.reset();
      this.longest = [];
      this.totals.clear();
    }
    return snapshot;
  }
}

const GC_KINDS: [number, string][] = [
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'major'],
  [constants.NODE_PERFORMANCE_GC_MINOR, 'minor'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weak callbacks'],
];

/** A gc entry's kind (its `detail.kind`), as the stretch names it. */
function gcKind(detail: unknown): string {
  const kind = (detail as { kind?: number } | null)?.kind;
  return GC_KINDS.find(([value]) => value === kind)?.[1] ?? 'other';
}

/** The shard thread's one record (one per thread: module state is per worker). */
export const shardStats = new ShardStats();
