import path from 'node:path';
import t from 'tap';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';

// The official JavaScript client of the API, configured from the owner.ini the server wrote.
// zulip-js has no type declarations; this is the slice of its surface the test uses.
interface JsClient {
  queues: {
    register(params: Record<string, unknown>): Promise<Record<string, unknown>>;
    deregister(params: { queue_id: string }): Promise<Record<string, unknown>>;
  };
}
const zulipInit = require('zulip-js') as (config: { zuliprc: string }) => Promise<JsClient>;

t.test('zulip-js registers a queue with the initial state it asked for, then deregisters it', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const client = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });
  const api = new ApiClient(server.baseUrl, server.owner);
  await api.post('/users/me/alert_words', { alert_words: ['release'] });

  // zulip-js stringifies event_types and sends the other parameters as they are.
  const registered = await client.queues.register({ event_types: ['alert_words', 'message'] });
  t.equal(registered['result'], 'success', JSON.stringify(registered).slice(0, 300));
  t.strictSame(registered['alert_words'], ['release'], 'fetch_event_types falls back to event_types');
  t.equal(registered['max_message_id'], -1);
  t.equal(registered['last_event_id'], -1);
  t.notOk('realm_users' in registered, 'only the requested types');
  const queueId = registered['queue_id'] as string;
  t.type(queueId, 'string');

  const deregistered = await client.queues.deregister({ queue_id: queueId });
  t.strictSame(deregistered, { result: 'success', msg: '' });
  const again = await client.queues.deregister({ queue_id: queueId });
  t.strictSame(again, { result: 'error', msg: `Bad event queue ID: ${queueId}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
});
