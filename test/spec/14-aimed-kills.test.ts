import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { ApiClient } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

// Crashes aimed at the moments the random crash loop (12-crash-loop) rarely hits (issue 20 §1):
// while scheduled messages go out, while the event queues are saved at shutdown (SIGTERM, then
// SIGKILL shortly after), and in the middle of a delete_topic's batches. Bounded: a few cycles
// each. Every realm file passes integrity_check at the end.

/** A seeded generator, so a failing run can be replayed (CRASH_SEED). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const seed = Number(process.env['CRASH_SEED'] ?? Date.now() % 100_000);
const next = random(seed);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function integrity(dataDir: string): string[] {
  const dir = path.join(dataDir, 'realms');
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.sqlite3'))
    .map((name) => {
      const db = new Database(path.join(dir, name), { readonly: true });
      const result = String(db.pragma('integrity_check', { simple: true }));
      db.close();
      return `${name} ${result}`;
    });
}

/** Contents of a topic's messages in the default realm's `general`, oldest first. */
async function topicContents(owner: ApiClient, topic: string): Promise<{ id: number; content: string }[]> {
  const answer = await owner.get('/messages', {
    anchor: 'newest',
    num_before: 1000,
    num_after: 0,
    apply_markdown: false,
    narrow: [
      { operator: 'stream', operand: 'general' },
      { operator: 'topic', operand: topic },
    ],
  });
  return (answer.body['messages'] as { id: number; content: string }[]).map(({ id, content }) => ({ id, content }));
}

t.comment(`seed ${seed} (CRASH_SEED replays it)`);

t.test('scheduled messages across SIGKILLs: none lost, none sent twice', async (t) => {
  let server: TestServer = await startServer();
  const { dataDir, port } = server;
  t.teardown(() => server.stop());
  const acknowledged: string[] = [];
  for (let cycle = 0; cycle < 3; cycle++) {
    const owner = new ApiClient(server.baseUrl, server.owner);
    const now = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 10; i++) {
      const content = `scheduled c${cycle} i${i}`;
      const answer = await owner.post('/scheduled_messages', {
        type: 'stream',
        to: 'general',
        topic: 'scheduled',
        content,
        scheduled_delivery_timestamp: now + 2 + (i % 3),
      });
      if (answer.status === 200) acknowledged.push(content);
    }
    // Killed somewhere between before the first delivery and after the last.
    await sleep(1_500 + Math.floor(next() * 3_000));
    await server.kill();
    server = await startServer({ dataDir, port });
  }
  const owner = new ApiClient(server.baseUrl, server.owner);
  // Overdue messages go out on the realm's first round after a start (workers/actors/scheduler.ts).
  for (let waited = 0; waited < 10_000; waited += 200) {
    const pending = (await owner.get('/scheduled_messages')).body['scheduled_messages'] as unknown[];
    if (pending.length === 0) break;
    await sleep(200);
  }
  const sent = (await topicContents(owner, 'scheduled')).map((message) => message.content);
  const counts = acknowledged.map((content) => `${content}: ${sent.filter((c) => c === content).length}`);
  t.strictSame(
    counts,
    acknowledged.map((content) => `${content}: 1`),
    'each acknowledged scheduled message was sent exactly once',
  );
  t.strictSame(sent.length, acknowledged.length, 'and nothing else was sent');
  await server.stop();
  t.strictSame(integrity(dataDir), ['default.sqlite3 ok'], 'the realm file passes integrity_check');
});

t.test('SIGKILL while the event queues are saved at shutdown: a queue is whole or gone', async (t) => {
  let server: TestServer = await startServer();
  const { dataDir, port } = server;
  t.teardown(() => server.stop());
  const outcomes = { restored: 0, gone: 0 };
  const problems: string[] = [];
  const sentIds: number[] = [];
  for (let cycle = 0; cycle < 4; cycle++) {
    const owner = new ApiClient(server.baseUrl, server.owner);
    const queues: string[] = [];
    for (let i = 0; i < 20; i++) queues.push(String((await owner.post('/register', { event_types: ['message'] })).body['queue_id']));
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const sent = await owner.post('/messages', { type: 'stream', to: 'general', topic: 'queues', content: `c${cycle} m${i}` });
      if (sent.status === 200) ids.push(Number(sent.body['id']));
    }
    sentIds.push(...ids);
    // The save is one short transaction: the kill, 0-8 ms after SIGTERM, lands before, in or after it.
    server.process.kill('SIGTERM');
    await sleep(Math.floor(next() * 8));
    await server.kill();
    server = await startServer({ dataDir, port });
    const restarted = new ApiClient(server.baseUrl, server.owner);
    for (const queueId of queues) {
      const answer = await restarted.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
      if (answer.status === 400 && answer.body['code'] === 'BAD_EVENT_QUEUE_ID') outcomes.gone++;
      else if (answer.status === 200) {
        outcomes.restored++;
        const got = (answer.body['events'] as { type: string; message?: { id: number } }[])
          .filter((event) => event.type === 'message')
          .map((event) => event.message?.id);
        if (JSON.stringify(got) !== JSON.stringify(ids))
          problems.push(`queue ${queueId}: events ${JSON.stringify(got)}, sent ${JSON.stringify(ids)}`);
      } else problems.push(`queue ${queueId}: ${answer.status} ${answer.text.slice(0, 120)}`);
    }
  }
  t.comment(`${outcomes.restored} queues restored whole, ${outcomes.gone} gone (BAD_EVENT_QUEUE_ID)`);
  t.strictSame(problems, [], 'every queue is restored with all its events, or answers BAD_EVENT_QUEUE_ID');
  const owner = new ApiClient(server.baseUrl, server.owner);
  const kept = (await topicContents(owner, 'queues')).map((message) => message.id);
  t.strictSame(kept, sentIds, 'every acknowledged message is there');
  await server.stop();
  t.strictSame(integrity(dataDir), ['default.sqlite3 ok'], 'the realm file passes integrity_check');
});

t.test('SIGKILL in the middle of a delete_topic: newest first, no gaps, and a second call finishes it', async (t) => {
  // Batches of 5: a topic of 100 messages takes 20 transactions, so the kill lands between two.
  const env = { DELETE_TOPIC_BATCH_SIZE: '5' };
  let server: TestServer = await startServer({ env });
  const { dataDir, port } = server;
  t.teardown(() => server.stop());
  const problems: string[] = [];
  let partial = 0;
  for (let cycle = 0; cycle < 2; cycle++) {
    const owner = new ApiClient(server.baseUrl, server.owner);
    const streamId = Number((await owner.get('/get_stream_id', { stream: 'general' })).body['stream_id']);
    const topic = `doomed ${cycle}`;
    const doomed: number[] = [];
    for (let i = 0; i < 100; i++) {
      doomed.push(Number((await owner.post('/messages', { type: 'stream', to: 'general', topic, content: `d${i}` })).body['id']));
    }
    const keptBefore = await topicContents(owner, 'kept');
    await owner.post('/messages', { type: 'stream', to: 'general', topic: 'kept', content: `k${cycle}` });
    const deletion = owner.post(`/streams/${streamId}/delete_topic`, { topic_name: topic }).catch(() => null);
    await sleep(5 + Math.floor(next() * 60));
    await server.kill();
    await deletion;
    server = await startServer({ dataDir, port, env });
    const restarted = new ApiClient(server.baseUrl, server.owner);
    const left = (await topicContents(restarted, topic)).map((message) => message.id);
    if (left.length > 0 && left.length < doomed.length) partial++;
    // Deleted newest first: what is left is the oldest part, without gaps.
    if (JSON.stringify(left) !== JSON.stringify(doomed.slice(0, left.length)))
      problems.push(`cycle ${cycle}: left ${JSON.stringify(left)}`);
    const kept = await topicContents(restarted, 'kept');
    if (kept.length !== keptBefore.length + 1) problems.push(`cycle ${cycle}: the other topic has ${kept.length} messages`);
    const again = await restarted.post(`/streams/${streamId}/delete_topic`, { topic_name: topic });
    if (again.status !== 200) problems.push(`cycle ${cycle}: the second delete_topic answered ${again.status}`);
    if ((await topicContents(restarted, topic)).length !== 0) problems.push(`cycle ${cycle}: the topic is still there`);
  }
  t.comment(`${partial} of 2 kills left a topic partly deleted`);
  t.strictSame(problems, [], 'the rest of a topic is its oldest messages; a second call deletes it; nothing else is touched');
  await server.stop();
  t.strictSame(integrity(dataDir), ['default.sqlite3 ok'], 'the realm file passes integrity_check');
});
