import autocannon from 'autocannon';
import { apiCall } from './lib/api';
import { DURATION_SECONDS, WARMUP_SECONDS, measure, type Measured } from './lib/measure';
import { ownerAuthHeader, startChatServer } from './lib/processes';
import { SEEDED_MESSAGES, seededDataDir } from './lib/seed-messages';

const WRITER_CONNECTIONS = 100;
const WRITES_STREAM = 'writes under reads';

const query = (narrow: object[]): string =>
  new URLSearchParams({ anchor: 'newest', num_before: '100', num_after: '0', narrow: JSON.stringify(narrow) }).toString();

/**
 * reads-under-writes (issue 24 §4): fetch-narrow and its search variant on the million-message
 * realm, alone and then while POST /messages runs at half its own solo rate in the same server
 * (readers and the writer share the realm's one shard thread). Target: reads keep ≥ 0.5 of
 * their solo rate. The writes go to a stream of their own, which the reads never match.
 */
export async function run(): Promise<void> {
  const dataDir = await seededDataDir();
  const server = await startChatServer({}, dataDir);
  try {
    const auth = ownerAuthHeader(dataDir);
    const headers = { Authorization: auth };
    await apiCall(server.url, auth, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: WRITES_STREAM }] });
    const send = {
      url: `${server.url}/api/v1/messages`,
      method: 'POST' as const,
      headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        type: 'stream',
        to: WRITES_STREAM,
        topic: 'bench',
        content: 'Hello, **world**! How is everyone doing today?',
      }).toString(),
      connections: WRITER_CONNECTIONS,
    };
    const writerSolo = await measure(send);
    const halfRate = Math.max(1, Math.floor(writerSolo.requestsPerSecond / 2));
    console.log(
      `reads-under-writes: the writer alone ${writerSolo.requestsPerSecond.toFixed(0)} messages/s (p99 ${writerSolo.p99Ms} ms); under reads it sends ${halfRate}/s`,
    );
    const reads: [string, object[]][] = [
      [
        'fetch-narrow (stream + topic)',
        [
          { operator: 'stream', operand: 'stream-3' },
          { operator: 'topic', operand: 'topic-42' },
        ],
      ],
      ['fetch-search ("deploy latency")', [{ operator: 'search', operand: 'deploy latency' }]],
    ];
    for (const [name, narrow] of reads) {
      const read = { url: `${server.url}/api/v1/messages?${query(narrow)}`, method: 'GET' as const, headers };
      const solo = await measure(read);
      const writer = autocannon({ ...send, overallRate: halfRate, duration: WARMUP_SECONDS + DURATION_SECONDS + 1 });
      const underWrites = await measure(read);
      const written = await writer;
      printReads(`${name}, ${SEEDED_MESSAGES} messages`, solo, underWrites, written);
    }
  } finally {
    await server.stop();
  }
}

function printReads(name: string, solo: Measured, underWrites: Measured, written: autocannon.Result): void {
  const failed = solo.non2xx + solo.errors + underWrites.non2xx + underWrites.errors + written.non2xx + written.errors;
  if (failed > 0) {
    console.log(`reads-under-writes ${name}: INVALID RUN: ${failed} failed requests`);
    process.exitCode = 1;
    return;
  }
  console.log(
    `reads-under-writes ${name}: ${underWrites.requestsPerSecond.toFixed(0)} req/s (p99 ${underWrites.p99Ms} ms) while ` +
      `${(written.requests.total / written.duration).toFixed(0)} messages/s were sent (${written.requests.total} in ` +
      `${written.duration.toFixed(0)} s, p99 ${written.latency.p99} ms) | solo ` +
      `${solo.requestsPerSecond.toFixed(0)} req/s (p99 ${solo.p99Ms} ms) | ratio ${(underWrites.requestsPerSecond / solo.requestsPerSecond).toFixed(3)} (target ≥ 0.5)`,
  );
}

if (require.main === module) void run();
