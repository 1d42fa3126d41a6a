import t from 'tap';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';

// The capacity benchmark's view of a shard (bench/mixed.ts): its event-loop delay and its
// longest synchronous stretches, each named by what ran; reachable with test hooks only.
t.test('GET /__test__/shard_stats', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);

  t.test('names a synchronous stretch by its route, with its length', async (t) => {
    const reset = await api.get('/__test__/shard_stats', { reset: true });
    t.equal(reset.status, 200);
    t.strictSame(Object.keys(reset.body).sort(), ['busiest', 'in_shard_ms', 'longest', 'loop_delay_ms', 'msg', 'result']);
    t.strictSame(Object.keys(reset.body['loop_delay_ms'] as object).sort(), ['max', 'p50', 'p99']);
    t.strictSame(Object.keys(reset.body['in_shard_ms'] as object).sort(), ['max', 'p50', 'p99']);
    const spun = await api.post('/__test__/spin', { ms: 40 });
    t.strictSame([spun.status, spun.body], [200, { result: 'success', msg: '', spun: 40 }]);
    const stats = await api.get('/__test__/shard_stats');
    const longest = stats.body['longest'] as { what: string; ms: number }[];
    const spin = longest.filter((stretch) => stretch.what === 'POST /__test__/spin');
    t.equal(spin.length, 1, 'the spin is among the longest stretches');
    // Lengths are printed, not compared with the 40 ms spun: tests make no timing assertion.
    t.comment(
      `the spin measured ${String(spin[0]?.ms)} ms; the loop's longest delay ${String((stats.body['loop_delay_ms'] as { max: number }).max)} ms`,
    );
    t.equal(typeof spin[0]?.ms, 'number', 'with its length');
    const busiest = stats.body['busiest'] as { what: string; count: number }[];
    t.strictSame(
      busiest.filter((work) => work.what === 'POST /__test__/spin').map((work) => work.count),
      [1],
      'the busiest work counts it once',
    );
    t.equal(typeof (stats.body['loop_delay_ms'] as { max: number }).max, 'number', 'and the loop delay it caused');
    // Not a time limit: the spin ran inside its request's stay in the shard, so that stay, as
    // kept by a histogram of three significant digits, is at least the spin's length.
    const inShard = stats.body['in_shard_ms'] as { max: number };
    t.ok(inShard.max >= (spin[0]?.ms ?? Infinity) * 0.99, `the request's stay in the shard (${inShard.max} ms) holds the spin`);
  });

  t.test("a poll's answer says when the front end wrote it", async (t) => {
    const queue = await api.post('/register', { event_types: JSON.stringify(['message']) });
    t.equal(queue.status, 200);
    const before = Date.now();
    const poll = await api.get('/events', { queue_id: String(queue.body['queue_id']), last_event_id: -1, dont_block: true });
    const after = Date.now();
    t.strictSame([poll.status, poll.body], [200, { result: 'success', msg: '', events: [] }]);
    const answeredAt = Number(poll.headers['x-test-answered-at']);
    // The same machine's clock, in epoch ms to a tenth: between the request and its answer.
    t.ok(answeredAt >= before - 1 && answeredAt <= after + 1, `answered at ${answeredAt}, between ${before} and ${after}`);
    const other = await api.get('/users/me');
    t.equal(other.headers['x-test-answered-at'], undefined, 'only polls carry it');
  });

  t.test('a reset starts anew', async (t) => {
    await api.get('/__test__/shard_stats', { reset: true });
    const stats = await api.get('/__test__/shard_stats');
    const names = (stats.body['longest'] as { what: string }[]).map((stretch) => stretch.what);
    t.notOk(names.includes('POST /__test__/spin'), 'no spin since the reset');
  });
});

t.test('GET /__test__/shard_stats is not reachable without test hooks', async (t) => {
  const server = await startServer({ env: { TEST_HOOKS: '0' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const answer = await api.get('/__test__/shard_stats');
  t.equal(answer.status, 404);
  const queue = await api.post('/register', { event_types: JSON.stringify(['message']) });
  const poll = await api.get('/events', { queue_id: String(queue.body['queue_id']), last_event_id: -1, dont_block: true });
  t.equal(poll.status, 200);
  t.equal(poll.headers['x-test-answered-at'], undefined, "a poll's answer does not say when it was written");
});
