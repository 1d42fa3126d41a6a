import { measure, report } from './lib/measure';
import { ownerAuthHeader, startCeiling, startChatServer } from './lib/processes';
import { SEEDED_USERS, seededUsersDataDir } from './lib/seed-users';
import { realmFile } from '../src/wire/realm-names';

/**
 * GET /users in a realm of 1,000 users (issue 9), bulk-seeded before the server starts
 * (bench/lib/seed-users.ts). The ceiling is the ideal read server: the same process layout
 * doing one indexed read of every user row and serialising it (bench/lib/ceiling-server.ts users).
 */
export async function run(): Promise<void> {
  const dataDir = await seededUsersDataDir();
  const server = await startChatServer({}, dataDir);
  const ceiling = await startCeiling('users', realmFile(dataDir, 'default'));
  try {
    const headers = { Authorization: ownerAuthHeader(dataDir) };
    const subject = await measure({ url: `${server.url}/api/v1/users`, method: 'GET', headers });
    const base = await measure({ url: `${ceiling.url}/api/v1/users`, method: 'GET', headers });
    report(`get-users (${SEEDED_USERS} users)`, subject, base, 'ideal read of every user row');
  } finally {
    await server.stop();
    await ceiling.stop();
  }
}

if (require.main === module) void run();
