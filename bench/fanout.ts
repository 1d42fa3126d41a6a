import type { ShardStatsSnapshot } from '../workers/lib/shard-stats';
import { apiCall, streamAudience } from './lib/api';
import { closeSockets, connectAll, parkPolls, percentile, sleep, type PollTarget } from './lib/parked-polls';
import { ownerAuthHeader, startChatServer, startParked } from './lib/processes';

const USERS = 100;
// 1,000 polls (issue 7), then 5,000 (issue 24 §2): 10 and then 50 queues per user.
const ROUND_SIZES = [1_000, 5_000];
const ROUNDS = Number(process.env['BENCH_FANOUT_ROUNDS'] ?? 20);
// Time for every poll of a round to reach its shard and park before the message goes out.
const PARK_MS_PER_1000 = 300;
// Issue 24 §2: p99 of the time until every poll is answered.
const TARGET_P99_MS: Record<number, number> = { 1_000: 20, 5_000: 100 };

interface Rounds {
  /** Per round: ms from sending the message until the last poll was answered. */
  allAnsweredMs: number[];
  /** Per round: ms until the first poll was answered (the send itself: render, commit, fsync). */
  firstAnsweredMs: number[];
  failures: number;
}

async function rounds(targets: PollTarget[], send: () => Promise<unknown>): Promise<Rounds> {
  const allAnsweredMs: number[] = [];
  const firstAnsweredMs: number[] = [];
  let failures = 0;
  // Round 0 opens the 1,000 connections and is not counted.
  await connectAll(targets);
  for (let round = -1; round < ROUNDS; round++) {
    const polls = parkPolls(targets);
    await sleep(PARK_MS_PER_1000 * Math.ceil(targets.length / 1_000));
    const start = performance.now();
    await send();
    const answered = await polls.answered(() => start);
    answered.lastEventIds.forEach((id, i) => ((targets[i] as PollTarget).lastEventId = id));
    if (round < 0) continue;
    failures += answered.failures;
    allAnsweredMs.push(answered.latenciesMs[answered.latenciesMs.length - 1] ?? NaN);
    firstAnsweredMs.push(answered.latenciesMs[0] ?? NaN);
  }
  allAnsweredMs.sort((a, b) => a - b);
  firstAnsweredMs.sort((a, b) => a - b);
  return { allAnsweredMs, firstAnsweredMs, failures };
}

function summary(r: Rounds): string {
  return (
    `p50 ${percentile(r.allAnsweredMs, 50).toFixed(1)} ms, p99 ${percentile(r.allAnsweredMs, 99).toFixed(1)} ms` +
    ` (first answer p50 ${percentile(r.firstAnsweredMs, 50).toFixed(1)} ms)`
  );
}

/**
 * fanout (issue 7, issue 24 §2): 1,000 queues (100 users × 10) on one stream, each with a poll
 * parked; one message sent; the time until every poll is answered, per round; then the same
 * with 5,000 queues (100 users × 50). The ceiling: a bare uWS server answering as many parked
 * requests at once (bench/lib/parked-server.ts).
 */
export async function run(): Promise<void> {
  // Test hooks on: the shard's loop delay while it answers a round (GET /__test__/shard_stats).
  const server = await startChatServer({ TEST_HOOKS: '1' });
  const ceiling = await startParked();
  try {
    const owner = ownerAuthHeader(server.dataDir);
    const auths = await streamAudience(server.url, owner, USERS);
    const targets: PollTarget[] = [];
    for (const size of ROUND_SIZES) {
      // Each user gets queues up to size / USERS; the earlier rounds' queues stay.
      for (const auth of auths) {
        const have = targets.filter((target) => target.auth === auth).length;
        for (let q = have; q < size / auths.length; q++) {
          const registered = await apiCall(server.url, auth, 'POST', '/register', { event_types: ['message'], apply_markdown: true });
          targets.push({ url: `${server.url}/api/v1/events`, auth, queueId: String(registered['queue_id']), lastEventId: -1 });
        }
      }
      const message = { type: 'stream', to: 'bench stream', topic: 'bench', content: 'Hello, **world**!' };
      await apiCall(server.url, owner, 'GET', '/__test__/shard_stats', { reset: true });
      const subject = await rounds(targets, () => apiCall(server.url, owner, 'POST', '/messages', message));
      const shard = (await apiCall(server.url, owner, 'GET', '/__test__/shard_stats')) as unknown as ShardStatsSnapshot;
      const bareTargets = targets.map((target) => ({ ...target, url: `${ceiling.url}/events` }));
      const bare = await rounds(bareTargets, () =>
        fetch(`${ceiling.url}/release?polls=${bareTargets.length}`, { method: 'POST', body: 'x' }),
      );
      closeSockets();
      const failures = subject.failures + bare.failures;
      const label = `fanout (${targets.length} parked polls, ${ROUNDS} rounds, until all answered)`;
      if (failures > 0) {
        console.log(`${label}: INVALID RUN: ${failures} polls not answered 200`);
        process.exitCode = 1;
        return;
      }
      const ratio = (p: number): string => (percentile(bare.allAnsweredMs, p) / percentile(subject.allAnsweredMs, p)).toFixed(3);
      console.log(
        `${label}: ${summary(subject)} | ceiling bare uWS ${summary(bare)} | ratio p50 ${ratio(50)}, p99 ${ratio(99)}` +
          ` (target p99 <= ${TARGET_P99_MS[size] ?? NaN} ms) | shard loop delay p99 ${shard.loop_delay_ms.p99} ms,` +
          ` max ${shard.loop_delay_ms.max} ms`,
      );
    }
  } finally {
    closeSockets();
    await server.stop();
    await ceiling.stop();
  }
}

if (require.main === module) void run();
