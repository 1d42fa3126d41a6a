import fs from 'node:fs';
import type { ShardStatsSnapshot } from '../workers/lib/shard-stats';
import { apiCall } from './lib/api';
import { measure, report } from './lib/measure';
import { WEB_REGISTER_FORM } from './lib/mixed-crowd';
import { ownerAuthHeader, startCeiling, startChatServer } from './lib/processes';
import { runCopyOf, seededPeople } from './lib/seed-people';

const PEOPLE = Number(process.env['BENCH_REGISTER_PEOPLE'] ?? 5_000);
const CONNECTIONS = 8;
// Each connection registers as someone else, as the page loads of different people do.
const REGISTERING_PEOPLE = 64;

/**
 * register (issue 24 §1): POST /register as the web page sends it, in `mixed`'s realm of 5,000
 * people, 252 streams. Its initial state is the largest answer of the API (realm_users alone is
 * about 330 bytes a person), and it is built on the realm's one thread: while it runs, no one
 * else of the organization is answered. Printed beside the ceiling (the same bytes through the
 * same process layout, bench/lib/ceiling-server.ts `bytes`) and with the shard's own time per
 * register and its longest, from the test hooks' shard stats.
 */
export async function run(): Promise<void> {
  const realm = await seededPeople(PEOPLE);
  const dataDir = runCopyOf(realm);
  const server = await startChatServer({ TEST_HOOKS: '1' }, dataDir);
  const ceiling = await startCeiling('bytes');
  try {
    const owner = ownerAuthHeader(dataDir);
    const body = new URLSearchParams(WEB_REGISTER_FORM).toString();
    const contentType = 'application/x-www-form-urlencoded';
    const registering = realm.people.slice(0, REGISTERING_PEOPLE);
    const headersPerConnection = registering.map((person) => ({ Authorization: person.auth, 'Content-Type': contentType }));
    const shardStats = (reset: boolean): Promise<ShardStatsSnapshot> =>
      apiCall(server.url, owner, 'GET', '/__test__/shard_stats', { reset }) as unknown as Promise<ShardStatsSnapshot>;

    // One answer, as the ceiling's bytes.
    const sample = await fetch(`${server.url}/api/v1/register`, {
      method: 'POST',
      headers: headersPerConnection[0] as Record<string, string>,
      body,
    });
    const answer = Buffer.from(await sample.arrayBuffer());
    if (sample.status !== 200) throw new Error(`register: ${sample.status} ${answer.toString('utf8', 0, 200)}`);
    await fetch(`${ceiling.url}/bytes`, { method: 'POST', body: answer });

    await shardStats(true);
    const subject = await measure({
      url: `${server.url}/api/v1/register`,
      method: 'POST',
      body,
      headersPerConnection,
      connections: CONNECTIONS,
    });
    const shard = await shardStats(false);
    const base = await measure({ url: `${ceiling.url}/bytes`, method: 'GET', connections: CONNECTIONS });
    report(`register (${realm.people.length} people, the web page's form, ${answer.length} bytes)`, subject, base, 'same bytes, no work');
    const registers = shard.busiest.find((entry) => entry.what === 'POST /register');
    const longest = shard.longest.find((stretch) => stretch.what === 'POST /register');
    if (registers && longest) {
      console.log(
        `register: shard thread ${(registers.total_ms / registers.count).toFixed(1)} ms a register (mean of ${registers.count}),` +
          ` longest ${longest.ms.toFixed(1)} ms: that long, no one else of the realm is answered`,
      );
    }
  } finally {
    await server.stop();
    await ceiling.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (require.main === module) void run();
