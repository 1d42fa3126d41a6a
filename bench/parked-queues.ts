import fs from 'node:fs';
import { apiCall, streamAudience } from './lib/api';
import { closeSockets, connectAll, parkPolls, percentile, sleep, type PollTarget } from './lib/parked-polls';
import { ownerAuthHeader, startChatServer, startParked } from './lib/processes';

const USERS = 100;
const QUEUES = Number(process.env['BENCH_PARKED_QUEUES'] ?? 10_000);
// Stay well under the 20,000 file descriptors a process may hold (DESIGN §Measured).
const PARK_MS = 2_000;
const REGISTER_CONCURRENCY = 50;

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kib / 1024;
}

async function parkAndRelease(
  targets: PollTarget[],
  pid: number,
  release: () => Promise<unknown>,
): Promise<{ rss: number; allAnsweredMs: number; p50Ms: number; failures: number }> {
  await connectAll(targets);
  const polls = parkPolls(targets);
  await sleep(PARK_MS);
  const rss = rssMiB(pid);
  const start = performance.now();
  await release();
  const answered = await polls.answered(() => start);
  const last = answered.latenciesMs[answered.latenciesMs.length - 1] ?? NaN;
  return { rss, allAnsweredMs: last, p50Ms: percentile(answered.latenciesMs, 50), failures: answered.failures };
}

/**
 * parked-queues (issue 7): 10,000 registered queues, each with a parked poll: the server's
 * resident memory (target <= 300 MiB) and the time to answer them all with one message.
 * The ceiling: a bare uWS server holding and answering as many requests.
 */
export async function run(): Promise<void> {
  const server = await startChatServer();
  const ceiling = await startParked();
  try {
    const owner = ownerAuthHeader(server.dataDir);
    const auths = await streamAudience(server.url, owner, USERS);
    const idleRss = rssMiB(server.pid);
    const targets: PollTarget[] = [];
    for (let i = 0; i < QUEUES; i += REGISTER_CONCURRENCY) {
      const batch = Array.from({ length: Math.min(REGISTER_CONCURRENCY, QUEUES - i) }, async (_, j) => {
        const auth = auths[(i + j) % auths.length] as string;
        const registered = await apiCall(server.url, auth, 'POST', '/register', { event_types: ['message'], apply_markdown: true });
        return { url: `${server.url}/api/v1/events`, auth, queueId: String(registered['queue_id']), lastEventId: -1 };
      });
      targets.push(...(await Promise.all(batch)));
    }
    const message = { type: 'stream', to: 'bench stream', topic: 'bench', content: 'Hello, **world**!' };
    const subject = await parkAndRelease(targets, server.pid, () => apiCall(server.url, owner, 'POST', '/messages', message));
    // 10,000 sockets each: the client closes the first set before opening the second.
    closeSockets();
    const bareTargets = targets.map((target) => ({ ...target, url: `${ceiling.url}/events` }));
    const bare = await parkAndRelease(bareTargets, ceiling.pid, () =>
      fetch(`${ceiling.url}/release?polls=${bareTargets.length}`, { method: 'POST', body: 'x' }),
    );
    const label = `parked-queues (${QUEUES} queues, each with a parked poll)`;
    if (subject.failures + bare.failures > 0) {
      console.log(`${label}: INVALID RUN: ${subject.failures + bare.failures} polls not answered 200`);
      process.exitCode = 1;
      return;
    }
    console.log(
      `${label}: server RSS ${subject.rss.toFixed(0)} MiB (${idleRss.toFixed(0)} MiB before the queues; target <= 300), ` +
        `all answered in ${subject.allAnsweredMs.toFixed(0)} ms (p50 ${subject.p50Ms.toFixed(0)} ms)` +
        ` | ceiling bare uWS RSS ${bare.rss.toFixed(0)} MiB, all answered in ${bare.allAnsweredMs.toFixed(0)} ms` +
        ` | ratio ${(bare.allAnsweredMs / subject.allAnsweredMs).toFixed(3)}`,
    );
  } finally {
    closeSockets();
    await server.stop();
    await ceiling.stop();
  }
}

if (require.main === module) void run();
