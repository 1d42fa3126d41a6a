import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import t from 'tap';
import { ApiClient } from '../helpers/http';
import { freePort, startServer, tempDataDir, type TestServer } from '../helpers/server';

interface JsClient {
  queues: {
    register(params: Record<string, unknown>): Promise<Record<string, unknown>>;
    deregister(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  };
  events: { retrieve(params: Record<string, unknown>): Promise<Record<string, unknown>> };
  messages: { send(params: Record<string, unknown>): Promise<Record<string, unknown>> };
}
const zulipInit = require('zulip-js') as (config: { zuliprc: string }) => Promise<JsClient>;

const LOOP = path.join(__dirname, 'fixtures', 'call-on-each-event.js');

t.test('zulip-js registers, reads events and deregisters', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const client = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });
  const registered = await client.queues.register({ event_types: ['message'] });
  t.equal(registered['result'], 'success', JSON.stringify(registered));
  const queueId = registered['queue_id'] as string;
  await client.messages.send({ to: 'general', type: 'stream', topic: 'js', content: 'an event for zulip-js' });
  const read = await client.events.retrieve({ queue_id: queueId, last_event_id: -1, dont_block: true });
  t.equal(read['result'], 'success', JSON.stringify(read));
  const [event] = read['events'] as Record<string, unknown>[];
  t.equal(event?.['type'], 'message');
  t.equal((event?.['message'] as Record<string, unknown>)['content'], 'an event for zulip-js');
  const gone = await client.queues.deregister({ queue_id: queueId });
  t.equal(gone['result'], 'success');
  const after = await client.events.retrieve({ queue_id: queueId, last_event_id: 0, dont_block: true });
  t.equal(after['code'], 'BAD_EVENT_QUEUE_ID');
});

t.test('callOnEachEvent keeps receiving messages across a graceful restart', async (t) => {
  const dataDir = tempDataDir();
  const port = await freePort();
  const start = (): Promise<TestServer> => startServer({ dataDir, port });
  let server = await start();
  t.teardown(() => server.stop());

  const loop = spawn(process.execPath, [LOOP, path.join(dataDir, 'owner.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => {
    loop.kill('SIGKILL');
  });
  const lines = readline.createInterface({ input: loop.stdout });
  const contents: string[] = [];
  let onContent: (() => void) | null = null;
  lines.on('line', (line) => {
    if (!line.startsWith('{')) return;
    const event = JSON.parse(line) as { type: string; message?: { content: string } };
    if (event.type === 'message' && event.message) contents.push(event.message.content);
    onContent?.();
  });
  const received = (content: string): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (contents.includes(content)) resolve();
      };
      onContent = check;
      check();
    });

  // The loop registers on its own; send until its queue exists and the message arrives.
  let api = new ApiClient(server.baseUrl, server.owner);
  for (let i = 0; !contents.some((c) => c.startsWith('hello')); i++) {
    await api.post('/messages', { type: 'stream', to: 'general', topic: 'loop', content: `hello ${i}` });
    await Promise.race([received(`hello ${i}`), new Promise((resolve) => setTimeout(resolve, 500))]);
  }

  t.equal(await server.stop(), 0);
  server = await start();
  api = new ApiClient(server.baseUrl, server.owner);
  await api.post('/messages', { type: 'stream', to: 'general', topic: 'loop', content: 'after the upgrade' });
  // zulip-js never registers again: if the queue were lost, the message would never come.
  const giveUp = new Promise((resolve) => setTimeout(resolve, 20_000).unref());
  await Promise.race([received('after the upgrade'), giveUp]);
  t.ok(contents.includes('after the upgrade'), 'the same queue delivered a message sent after the restart');
});
