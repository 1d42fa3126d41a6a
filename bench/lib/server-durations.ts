/**
 * The server's own view of its answer times: the front end's request-duration histogram
 * (GET /metrics, src/metrics/metrics.ts), from the request's arrival at the front end to its
 * answer's write. Set beside the generator's timings it says how much of a p99 was spent
 * outside the server (in the generator, the kernel, or before the front end read the request).
 */

const BUCKET = /^teamchat_http_request_duration_seconds_bucket\{le="([^"]+)",route="([^"]+)"\} (\d+)$/;

const LOOP_DELAY = /^teamchat_nodejs_eventloop_lag_(p99|max)_seconds (\S+)$/;

/** route → cumulative count at or under each bound (seconds; Infinity last). */
export type DurationScrape = Map<string, Map<number, number>>;

export async function scrapeDurations(metricsPort: number): Promise<DurationScrape> {
  return (await scrapeServer(metricsPort)).durations;
}

/**
 * The request durations and the front-end thread's event-loop delay since the previous scrape
 * (prom-client's default metrics reset their delay histogram on every scrape): whether the
 * front end, not the shard, held answers back. NaN when the server does not serve it.
 */
export async function scrapeServer(
  metricsPort: number,
): Promise<{ durations: DurationScrape; frontEndLoopDelayMs: { p99: number; max: number } }> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const durations: DurationScrape = new Map();
  const frontEndLoopDelayMs = { p99: NaN, max: NaN };
  for (const line of text.split('\n')) {
    const lag = LOOP_DELAY.exec(line);
    if (lag) frontEndLoopDelayMs[lag[1] as 'p99' | 'max'] = Number(lag[2]) * 1000;
    const match = BUCKET.exec(line);
    if (!match) continue;
    const [, le, route, count] = match as unknown as [string, string, string, string];
    let buckets = durations.get(route);
    if (!buckets) durations.set(route, (buckets = new Map()));
    buckets.set(le === '+Inf' ? Infinity : Number(le), Number(count));
  }
  return { durations, frontEndLoopDelayMs };
}

/** Between two scrapes, the bucket bound (ms) under which 99% of `route`'s answers fell; NaN: none. */
export function serverP99BoundMs(before: DurationScrape, after: DurationScrape, route: string): number {
  const end = after.get(route);
  if (!end) return NaN;
  const start = before.get(route);
  const total = (end.get(Infinity) ?? 0) - (start?.get(Infinity) ?? 0);
  if (total === 0) return NaN;
  const bounds = [...end.keys()].sort((a, b) => a - b);
  for (const bound of bounds) {
    const within = (end.get(bound) ?? 0) - (start?.get(bound) ?? 0);
    if (within >= 0.99 * total) return bound * 1000;
  }
  return Infinity;
}
