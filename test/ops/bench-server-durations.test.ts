import t from 'tap';
import { scrapeDurations, scrapeServer, serverP99BoundMs } from '../../bench/lib/server-durations';
import { ApiClient } from '../helpers/http';
import { freePort, startServer } from '../helpers/server';

// The capacity benchmark reads the server's own answer times from GET /metrics
// (bench/lib/server-durations.ts): its parser must keep up with what the server serves, or the
// benchmark's "server p99" column goes blank without a word.

const BOUNDS_MS = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000, 90000];

t.test("the benchmark's reading of the server's request durations", async (t) => {
  const metricsPort = await freePort();
  const server = await startServer({ env: { METRICS_PORT: String(metricsPort) } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);

  const before = await scrapeDurations(metricsPort);
  for (let i = 0; i < 5; i++) t.equal((await api.get('/users/me')).status, 200);
  const after = await scrapeDurations(metricsPort);

  const route = 'GET /users/me';
  const counted = (scrape: typeof after): number => scrape.get(route)?.get(Infinity) ?? 0;
  t.equal(counted(after) - counted(before), 5, 'every answer counted once, under its route');
  const bound = serverP99BoundMs(before, after, route);
  t.ok(BOUNDS_MS.includes(bound), `the p99 is one of the histogram's bounds (got ${bound})`);
  t.ok(Number.isNaN(serverP99BoundMs(before, after, 'GET /no-such-route')), 'no answers: no figure');
  t.ok(Number.isNaN(serverP99BoundMs(after, after, route)), 'nothing between two equal scrapes: no figure');

  // The front end's loop delay since the previous scrape: read, whatever its value.
  const { frontEndLoopDelayMs } = await scrapeServer(metricsPort);
  t.strictSame(
    [Number.isFinite(frontEndLoopDelayMs.p99), Number.isFinite(frontEndLoopDelayMs.max)],
    [true, true],
    `the front end's event-loop delay is read (p99 ${frontEndLoopDelayMs.p99} ms, max ${frontEndLoopDelayMs.max} ms)`,
  );
});
