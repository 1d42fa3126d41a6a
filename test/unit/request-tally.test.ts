import t from 'tap';
import { RequestTally } from '../../src/metrics/request-tally';
import { parseExposition, series } from '../helpers/metrics';

// The latency histogram the front end keeps itself (src/metrics/request-tally.ts), written in
// the Prometheus text format: `le` buckets are cumulative and inclusive of their bound.

t.test('buckets are cumulative, a value on a bound counts in that bucket', async (t) => {
  const tally = new RequestTally([0.01, 0.1]);
  for (const seconds of [0.005, 0.01, 0.05, 0.1, 2]) tally.add('GET /users/me', 200, seconds);
  tally.add('say "hi"\\now', 404, 0.02);
  const { types, samples } = parseExposition(tally.histogramText('latency_seconds', 'help text'));
  t.strictSame([...types], [['latency_seconds', 'histogram']]);
  const route = { route: 'GET /users/me' };
  const odd = { route: 'say "hi"\\now' };
  t.strictSame(
    [...samples],
    [
      [series('latency_seconds_bucket', { ...route, le: '0.01' }), 2],
      [series('latency_seconds_bucket', { ...route, le: '0.1' }), 4],
      [series('latency_seconds_bucket', { ...route, le: '+Inf' }), 5],
      [series('latency_seconds_sum', route), 0.005 + 0.01 + 0.05 + 0.1 + 2],
      [series('latency_seconds_count', route), 5],
      [series('latency_seconds_bucket', { ...odd, le: '0.01' }), 0],
      [series('latency_seconds_bucket', { ...odd, le: '0.1' }), 1],
      [series('latency_seconds_bucket', { ...odd, le: '+Inf' }), 1],
      [series('latency_seconds_sum', odd), 0.02],
      [series('latency_seconds_count', odd), 1],
    ],
    'a label value with quotes and backslashes is escaped and reads back the same',
  );
  t.strictSame(
    [...tally.tallies()].map(({ route, byStatus }) => [route, [...byStatus]]),
    [
      ['GET /users/me', [[200, 5]]],
      ['say "hi"\\now', [[404, 1]]],
    ],
  );
});
