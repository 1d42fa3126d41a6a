import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiCall, createMembers } from './lib/api';
import { measure, report, type Measured } from './lib/measure';
import { measureSendFloor, type SendFloor } from './lib/send-floor';
import { DEFAULT_REALM, realmFile } from '../src/wire/realm-names';
import { ownerAuthHeader, startChatServer, startIdeal } from './lib/processes';

const SUBSCRIBERS = 10;
const CONNECTIONS = 100;
const STREAM = 'bench stream';
// The floor is timed three times and its median used; the three printed show its own spread
// within a run (about 2%), apart from the machine's between runs (86 to 130 µs a message).
const FLOOR_PASSES = 3;

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
    const owner = Number((await apiCall(server.url, auth, 'GET', '/users/me'))['user_id']);
    // The sender is one of the subscribers: principals alone are subscribed, not the requester.
    await apiCall(server.url, auth, 'POST', '/users/me/subscriptions', {
      subscriptions: [{ name: STREAM }],
      principals: [owner, ...members],
    });
    const body = new URLSearchParams({
      type: 'stream',
      to: STREAM,
      topic: 'bench',
      content: 'Hello, **world**! How is everyone doing today?',
    }).toString();
    const headers = { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded' };
    const subject = await measure({ url: `${server.url}/api/v1/messages`, method: 'POST', headers, body, connections: CONNECTIONS });
    const ceiling = await measure({ url: `${ideal.url}/api/v1/messages`, method: 'POST', headers, body, connections: CONNECTIONS });
    report(`send-stream (${SUBSCRIBERS} subscribers, ${CONNECTIONS} connections)`, subject, ceiling, 'ideal send');
    // The floor is timed on the realm file with the server stopped (stopping again below is a no-op).
    await server.stop();
    reportFloor(measureSendFloor(realmFile(server.dataDir, DEFAULT_REALM), STREAM, 10_000, FLOOR_PASSES), ceiling, subject);
  } finally {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
    await ideal.stop();
    fs.rmSync(idealDir, { recursive: true, force: true });
  }
}

/**
 * What the shard thread could reach if a send did nothing but its writes: the ceiling any
 * change short of a new storage layout stays under, printed beside the measured ratio.
 */
export function reportFloor(floor: SendFloor, ceiling: Measured, subject?: Measured, scenario = 'send-stream'): void {
  const messagesPerSecond = 1e6 / floor.microsPerMessage;
  console.log(
    `${scenario} storage floor: ${floor.microsPerMessage.toFixed(1)} µs/message` +
      (floor.passesMicros.length > 1 ? ` (median of ${floor.passesMicros.map((micros) => micros.toFixed(1)).join(', ')})` : '') +
      ` (message row, search index, ` +
      `${floor.recipients} recipients' rows, durable commit per 50) | at most ${messagesPerSecond.toFixed(0)} messages/s ` +
      `on one shard thread | ratio ≤ ${(messagesPerSecond / ceiling.requestsPerSecond).toFixed(3)} of ideal send` +
      // Issue 24 §3: the server's rate against what the data model must write (target ≥ 0.7).
      (subject ? ` | server at ${(subject.requestsPerSecond / messagesPerSecond).toFixed(3)} of the floor` : ''),
  );
}

if (require.main === module) void run();
