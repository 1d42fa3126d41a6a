import t from 'tap';
import { ApiClient } from '../helpers/http';
import { scrape, total } from '../helpers/metrics';
import { freePort, startServer, tempDataDir, type TestServer } from '../helpers/server';

// An upgrade as an administrator runs it (issue 23 "Upgrades"): SIGTERM, then the server started
// again on the same data directory and port. The same build is started again here: what the
// test shows is that a stop and a start keep clients connected, whichever build starts. A
// client long-polls across it the way the API's clients do (a poll answered at the stop, polls
// refused while the port is closed, retried) and gets its event after the restart, on the same
// queue ID.

interface PollRecord {
  /** What each poll attempt came to: an HTTP status, or the connection error's code. */
  outcomes: (number | string)[];
  events: Record<string, unknown>[];
}

/** Polls `queueId` until a message event arrives, retrying connection errors every 50 ms. */
async function pollAcross(client: () => ApiClient, queueId: string, record: PollRecord): Promise<void> {
  let lastEventId = -1;
  for (;;) {
    let res;
    try {
      res = await client().get('/events', { queue_id: queueId, last_event_id: lastEventId });
    } catch (err) {
      record.outcomes.push((err as NodeJS.ErrnoException).code ?? String(err));
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    record.outcomes.push(res.status);
    if (res.status !== 200) throw new Error(`poll refused: ${res.text}`);
    for (const event of res.body['events'] as Record<string, unknown>[]) {
      lastEventId = Math.max(lastEventId, event['id'] as number);
      if (event['type'] === 'heartbeat') continue;
      record.events.push(event);
    }
    if (record.events.length > 0) return;
  }
}

t.test('a client long-polling across a stop and start gets its event on the same queue', async (t) => {
  const dataDir = tempDataDir();
  const port = await freePort();
  const metricsPort = await freePort();
  const start = (): Promise<TestServer> => startServer({ dataDir, port, env: { METRICS_PORT: String(metricsPort) } });
  let server = await start();
  t.teardown(() => server.stop());
  const client = (): ApiClient => new ApiClient(server.baseUrl, server.owner);

  const registered = await client().post('/register', { event_types: ['message'] });
  t.equal(registered.status, 200, registered.text);
  const queueId = String(registered.body['queue_id']);
  const record: PollRecord = { outcomes: [], events: [] };
  const polling = pollAcross(client, queueId, record);
  // The poll is parked at its shard before the stop.
  while (total(await scrape(metricsPort), 'teamchat_shard_parked_polls') !== 1) await new Promise((resolve) => setTimeout(resolve, 20));

  t.equal(await server.stop(), 0, 'the old server stops cleanly');
  server = await start();
  const sent = await client().post('/messages', { type: 'stream', to: 'general', topic: 'upgrade', content: 'after the restart' });
  t.equal(sent.status, 200, sent.text);
  await polling;

  t.strictSame(
    record.events.map((event) => [event['id'], event['type'], (event['message'] as Record<string, unknown>)['content']]),
    [[0, 'message', 'after the restart']],
    'the event comes on the queue registered before the stop, with the next event ID',
  );
  t.equal(record.outcomes[0], 200, 'the parked poll was answered at the stop');
  t.equal(record.outcomes.at(-1), 200, 'and the poll after the start got the event');
  const refused = record.outcomes.filter((outcome) => typeof outcome === 'string');
  t.strictSame(
    [...new Set(refused)].filter((code) => code !== 'ECONNREFUSED' && code !== 'ECONNRESET'),
    [],
    `between them only refused connections (${refused.length} attempts), never an error answer`,
  );
});
