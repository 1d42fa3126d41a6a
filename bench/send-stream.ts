import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiCall, createMembers } from './lib/api';
import { measure, report, type Measured } from './lib/measure';
import { measureSendFloor, type FloorPasses, type SendFloor } from './lib/send-floor';
import { DEFAULT_REALM, realmFile } from '../src/wire/realm-names';
import { ownerAuthHeader, startChatServer, startIdeal } from './lib/processes';

const SUBSCRIBERS = 10;
const CONNECTIONS = 100;
const STREAM = 'bench stream';
// The floor is timed three times each way and the medians used; all are printed.
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

/** One way of committing's figure, with its passes when there were several. */
function floorFigure(passes: FloorPasses): string {
  const each = passes.passesMicros.length > 1 ? ` (median of ${passes.passesMicros.map((micros) => micros.toFixed(1)).join(', ')})` : '';
  return `${passes.microsPerMessage.toFixed(1)} µs/message${each}`;
}

/**
 * What the shard thread could reach if a send did nothing but its writes: the ceiling any
 * change short of a new storage layout stays under, printed beside the measured ratio. Twice:
 * with a durable commit per 50 messages, as one writer alone would make them, and with the
 * writes alone, as the shard makes them while its sync thread makes them durable.
 */
export function reportFloor(floor: SendFloor, ceiling: Measured, subject?: Measured, scenario = 'send-stream'): void {
  const durablePerSecond = 1e6 / floor.durable.microsPerMessage;
  const writesPerSecond = 1e6 / floor.writes.microsPerMessage;
  console.log(
    `${scenario} storage floor (message row, search index, ${floor.recipients} recipients' rows): ` +
      `${floorFigure(floor.durable)} with a durable commit per 50, ${floorFigure(floor.writes)} writing alone | at most ${durablePerSecond.toFixed(0)} / ${writesPerSecond.toFixed(0)} messages/s ` +
      `on one shard thread | ratio ≤ ${(durablePerSecond / ceiling.requestsPerSecond).toFixed(3)} of ideal send` +
      // Issue 24 §3: the server's rate against what the data model must write (target ≥ 0.7).
      (subject
        ? ` | server at ${(subject.requestsPerSecond / durablePerSecond).toFixed(3)} of the durable floor, ` +
          `${(subject.requestsPerSecond / writesPerSecond).toFixed(3)} of the writes alone`
        : ''),
  );
}

if (require.main === module) void run();
