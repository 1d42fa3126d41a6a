import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiCall, createMembers } from './lib/api';
import { measure, report } from './lib/measure';
import { ownerAuthHeader, startChatServer, startIdeal } from './lib/processes';

const SUBSCRIBERS = 10;
const CONNECTIONS = 100;

/**
 * POST /messages to a stream with 10 subscribers, 100 connections (issue: send-stream). The
 * ceiling is "ideal send": the same process layout doing one durable insert per request with
 * group commit and nothing else (bench/lib/ideal-server.ts).
 */
export async function run(): Promise<void> {
  const server = await startChatServer();
  const idealDir = fs.mkdtempSync(path.join(os.tmpdir(), 'teamchat-bench-ideal-'));
  const ideal = await startIdeal('send', path.join(idealDir, 'ideal.sqlite3'));
  try {
    const auth = ownerAuthHeader(server.dataDir);
    const members = await createMembers(server.url, auth, SUBSCRIBERS - 1);
    await apiCall(server.url, auth, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'bench stream' }], principals: members });
    const body = new URLSearchParams({ type: 'stream', to: 'bench stream', topic: 'bench', content: 'Hello, **world**! How is everyone doing today?' }).toString();
    const headers = { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded' };
    const subject = await measure({ url: `${server.url}/api/v1/messages`, method: 'POST', headers, body, connections: CONNECTIONS });
    const ceiling = await measure({ url: `${ideal.url}/api/v1/messages`, method: 'POST', headers, body, connections: CONNECTIONS });
    report(`send-stream (${SUBSCRIBERS} subscribers, ${CONNECTIONS} connections)`, subject, ceiling, 'ideal send');
  } finally {
    await server.stop();
    await ideal.stop();
    fs.rmSync(idealDir, { recursive: true, force: true });
  }
}

if (require.main === module) void run();
