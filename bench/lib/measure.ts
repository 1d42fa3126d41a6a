import autocannon from 'autocannon';

export interface Load {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface Measured {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export const DURATION_SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
export const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 50);

export async function measure(load: Load): Promise<Measured> {
  const options: autocannon.Options = {
    url: load.url,
    method: load.method,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    headers: load.headers ?? {},
  };
  if (load.body !== undefined) options.body = load.body;
  const result = await autocannon(options);
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function report(scenario: string, subject: Measured, baseline: Measured): void {
  const ratio = subject.requestsPerSecond / baseline.requestsPerSecond;
  console.log(
    `${scenario}: ${subject.requestsPerSecond.toFixed(0)} req/s (p99 ${subject.p99Ms} ms, non-2xx ${subject.non2xx}, errors ${subject.errors})` +
      ` | baseline bare uWS ${baseline.requestsPerSecond.toFixed(0)} req/s (p99 ${baseline.p99Ms} ms)` +
      ` | ratio ${ratio.toFixed(3)}`,
  );
}
