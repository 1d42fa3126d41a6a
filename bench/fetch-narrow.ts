import Database from 'better-sqlite3';
import { measure, report } from './lib/measure';
import { ownerAuthHeader, startChatServer, startIdeal } from './lib/processes';
import { SEEDED_MESSAGES, STREAMS, TOPICS_PER_STREAM, seededDataDir } from './lib/seed-messages';
import { realmFile } from '../src/wire/realm-names';

/**
 * GET /messages with a stream + topic narrow, anchor newest, 100 messages, on a realm of a
 * million messages (issue: fetch-narrow). The ceiling is "ideal read": the same process layout
 * doing one indexed 100-row range read per request. Full-text search on the same realm is
 * measured too, against the same ceiling.
 *
 * The shard keeps message objects between fetches (workers/queries/message-json.ts), so a
 * page asked for over and over is mostly served from memory. "cold" shows the other end:
 * each connection walks the newest page of every topic of every stream, 100,000 messages
 * in all, ten times what the cache holds, so nearly every message is read and built anew.
 */
/** The ideal server takes the stream's ID: it resolves no names. */
function streamId(dataDir: string, name: string): number {
  const db = new Database(realmFile(dataDir, 'default'), { readonly: true });
  try {
    return (db.prepare('SELECT id FROM streams WHERE name = ?').get(name) as { id: number }).id;
  } finally {
    db.close();
  }
}

export async function run(): Promise<void> {
  const dataDir = await seededDataDir();
  const server = await startChatServer({}, dataDir);
  const ideal = await startIdeal('read', realmFile(dataDir, 'default'));
  try {
    const headers = { Authorization: ownerAuthHeader(dataDir) };
    const query = (narrow: object[]): string =>
      new URLSearchParams({ anchor: 'newest', num_before: '100', num_after: '0', narrow: JSON.stringify(narrow) }).toString();
    const topicNarrow = [
      { operator: 'stream', operand: 'stream-3' },
      { operator: 'topic', operand: 'topic-42' },
    ];
    const subject = await measure({ url: `${server.url}/api/v1/messages?${query(topicNarrow)}`, method: 'GET', headers });
    const ceiling = await measure({
      url: `${ideal.url}/api/v1/messages?stream_id=${streamId(dataDir, 'stream-3')}&topic=topic-42`,
      method: 'GET',
      headers,
    });
    report(`fetch-narrow (stream + topic, 100 of ${SEEDED_MESSAGES} messages)`, subject, ceiling, 'ideal read');
    const topicPages = (ids: boolean): string[] =>
      Array.from({ length: STREAMS * TOPICS_PER_STREAM }, (_, i) => {
        const stream = `stream-${i % STREAMS}`;
        const topic = `topic-${Math.floor(i / STREAMS)}`;
        if (ids) return `/api/v1/messages?stream_id=${streamIds.get(stream)}&topic=${topic}`;
        return `/api/v1/messages?${query([
          { operator: 'stream', operand: stream },
          { operator: 'topic', operand: topic },
        ])}`;
      });
    const streamIds = new Map(Array.from({ length: STREAMS }, (_, s) => [`stream-${s}`, streamId(dataDir, `stream-${s}`)]));
    const cold = await measure({ url: `${server.url}/api/v1/messages`, method: 'GET', headers, paths: topicPages(false) });
    const coldCeiling = await measure({ url: `${ideal.url}/api/v1/messages`, method: 'GET', headers, paths: topicPages(true) });
    report(`fetch-narrow cold (every topic's newest 100, ${STREAMS * TOPICS_PER_STREAM} topics in turn)`, cold, coldCeiling, 'ideal read');
    const search = await measure({
      url: `${server.url}/api/v1/messages?${query([{ operator: 'search', operand: 'deploy latency' }])}`,
      method: 'GET',
      headers,
    });
    report(`fetch-search (search "deploy latency", 100 of ${SEEDED_MESSAGES} messages)`, search, ceiling, 'ideal read');
  } finally {
    await server.stop();
    await ideal.stop();
  }
}

if (require.main === module) void run();
