import { createMembers, memberAuthHeaders } from './lib/api';
import { measure, report } from './lib/measure';
import { ownerAuthHeader, startCeiling, startChatServer } from './lib/processes';

const MEMBERS = 100;
const CONNECTIONS = 100;

/**
 * POST /users/me/presence from 100 members, each connection authenticated as its own member,
 * 100 connections (issue 9). Two variants: `ping_only=true` (the answer is empty) and without it
 * (the answer is the realm's presences). Presence lives in the shard's memory (workers/lib/
 * presence.ts), so the ceiling is the same process layout answering a frame with nothing behind
 * it (bench/lib/ceiling-server.ts echo).
 */
export async function run(): Promise<void> {
  const server = await startChatServer();
  const ceiling = await startCeiling('echo');
  try {
    await createMembers(server.url, ownerAuthHeader(server.dataDir), MEMBERS);
    const auths = await memberAuthHeaders(server.url, MEMBERS);
    const headersPerConnection = auths.map((auth) => ({ Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded' }));
    const url = `${server.url}/api/v1/users/me/presence`;
    const ceilingUrl = `${ceiling.url}/api/v1/users/me/presence`;
    const ping = new URLSearchParams({ status: 'active', ping_only: 'true' }).toString();
    const full = new URLSearchParams({ status: 'active' }).toString();
    const load = { method: 'POST' as const, connections: CONNECTIONS, headersPerConnection };
    const pingSubject = await measure({ ...load, url, body: ping });
    const pingCeiling = await measure({ ...load, url: ceilingUrl, body: ping });
    report(`presence ping_only (${MEMBERS} members, ${CONNECTIONS} connections)`, pingSubject, pingCeiling, 'echo frame');
    const fullSubject = await measure({ ...load, url, body: full });
    const fullCeiling = await measure({ ...load, url: ceilingUrl, body: full });
    report(`presence with the realm's presences (${MEMBERS} members, ${CONNECTIONS} connections)`, fullSubject, fullCeiling, 'echo frame');
  } finally {
    await server.stop();
    await ceiling.stop();
  }
}

if (require.main === module) void run();
