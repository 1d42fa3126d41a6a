import autocannon from 'autocannon';

export interface Load {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Concurrent connections; BENCH_CONNECTIONS (default 50) when absent. */
  connections?: number;
  /** Connection i sends these headers (i modulo their count), e.g. one user each. */
  headersPerConnection?: Record<string, string>[];
  /**
   * Paths (with their query) that every connection walks in a loop, each from its own place:
   * connection i starts i × (paths / connections) along, so no two ask for the same at once.
   */
  paths?: string[];
}

export interface Measured {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export const DURATION_SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
/**
 * Load before the measured seconds, on both sides of every ratio alike, so what is measured is
 * the steady state of a running server and not its first second (JIT compilation, caches
 * filling): BENCH_WARMUP_SECONDS=0 measures from the first request.
 */
export const WARMUP_SECONDS = Number(process.env['BENCH_WARMUP_SECONDS'] ?? 1);
export const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);

export async function measure(load: Load): Promise<Measured> {
  const connections = load.connections ?? CONNECTIONS;
  const options: autocannon.Options = {
    url: load.url,
    method: load.method,
    connections,
    duration: DURATION_SECONDS,
    headers: load.headers ?? {},
  };
  if (load.body !== undefined) options.body = load.body;
  const perConnection = load.headersPerConnection;
  const paths = load.paths ?? [];
  const stride = Math.max(1, Math.floor(paths.length / connections));
  let next = 0;
  options.setupClient = (client) => {
    const connection = next++;
    if (perConnection && perConnection.length > 0) client.setHeaders(perConnection[connection % perConnection.length]);
    if (paths.length > 0) {
      const start = (connection * stride) % paths.length;
      client.setRequests([...paths.slice(start), ...paths.slice(0, start)].map((path) => ({ path })));
    }
  };
  if (WARMUP_SECONDS > 0) await autocannon({ ...options, duration: WARMUP_SECONDS });
  const result = await autocannon(options);
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function report(scenario: string, subject: Measured, baseline: Measured, baselineName = 'bare uWS'): void {
  const ratio = subject.requestsPerSecond / baseline.requestsPerSecond;
  // A figure made of error answers measures nothing: say so instead of printing a ratio.
  const failed = subject.non2xx + subject.errors + baseline.non2xx + baseline.errors;
  if (failed > 0) {
    console.log(
      `${scenario}: INVALID RUN: ${subject.non2xx + baseline.non2xx} non-2xx answers, ${subject.errors + baseline.errors} errors`,
    );
    process.exitCode = 1;
    return;
  }
  console.log(
    `${scenario}: ${subject.requestsPerSecond.toFixed(0)} req/s (p99 ${subject.p99Ms} ms, non-2xx ${subject.non2xx}, errors ${subject.errors})` +
      ` | baseline ${baselineName} ${baseline.requestsPerSecond.toFixed(0)} req/s (p99 ${baseline.p99Ms} ms)` +
      ` | ratio ${ratio.toFixed(3)} (p99 ${(subject.p99Ms / Math.max(baseline.p99Ms, 1)).toFixed(2)}x)`,
  );
}
