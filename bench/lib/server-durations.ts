/**
 * The server's own view of its answer times: the front end's request-duration histogram
 * (GET /metrics, src/metrics/metrics.ts), from the request's arrival at the front end to its
 * answer's write. Set beside the generator's timings it says how much of a p99 was spent
 * outside the server (in the generator, the kernel, or before the front end read the request).
 */

const BUCKET = /^teamchat_http_request_duration_seconds_bucket\{le="([^"]+)",route="([^"]+)"\} (\d+)$/;

/** route → cumulative count at or under each bound (seconds; Infinity last). */
export type DurationScrape = Map<string, Map<number, number>>;

export async function scrapeDurations(metricsPort: number): Promise<DurationScrape> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const scrape: DurationScrape = new Map();
  for (const line of text.split('\n')) {
    const match = BUCKET.exec(line);
    if (!match) continue;
    const [, le, route, count] = match as unknown as [string, string, string, string];
    let buckets = scrape.get(route);
    if (!buckets) scrape.set(route, (buckets = new Map()));
    buckets.set(le === '+Inf' ? Infinity : Number(le), Number(count));
  }
  return scrape;
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
