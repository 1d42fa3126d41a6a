import { measure, report } from './lib/measure';
import { ownerAuthHeader, startBaseline, startChatServer } from './lib/processes';

/** GET /users/me: the authenticated read path (front end → shard → SQLite read → reply). */
export async function run(): Promise<void> {
  const server = await startChatServer();
  const baseline = await startBaseline();
  try {
    const headers = { Authorization: ownerAuthHeader(server.dataDir) };
    const subject = await measure({ url: `${server.url}/api/v1/users/me`, method: 'GET', headers });
    const base = await measure({ url: `${baseline.url}/api/v1/users/me`, method: 'GET', headers });
    report('get-own-user', subject, base);
  } finally {
    await server.stop();
    await baseline.stop();
  }
}

if (require.main === module) void run();
