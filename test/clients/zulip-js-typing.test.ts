import path from 'node:path';
import t from 'tap';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';

// The official JavaScript client of the API; this is the slice of its surface the test uses.
type Body = Record<string, unknown>;
interface JsClient {
  typing: { send(params: Record<string, unknown>): Promise<Body> };
  queues: { register(params: Record<string, unknown>): Promise<Body> };
  events: { retrieve(params: Record<string, unknown>): Promise<Body> };
}
type JsConfig = { zuliprc: string } | { username: string; apiKey: string; realm: string };
const zulipInit = require('zulip-js') as (config: JsConfig) => Promise<JsClient>;

t.test('zulip-js typing.send notifies the other participants, who read it with events.retrieve', async (t) => {
  const server = await startServer({ env: { TYPING_STARTED_EXPIRY_MS: '600000' } });
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const bob = await createMember(owner, 'Bob');
  const ownerId = Number((await owner.get('/users/me')).body['user_id']);
  const subscribed = await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'js-typing' }], principals: [bob.id] });
  t.equal(subscribed.status, 200, subscribed.text);
  const streamId = await streamIdOf(owner, 'js-typing');

  const ownerJs = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });
  const bobJs = await zulipInit({ username: bob.email, apiKey: bob.key, realm: server.baseUrl });
  const registered = await bobJs.queues.register({
    event_types: ['typing'],
    client_capabilities: JSON.stringify({ stream_typing_notifications: true }),
  });
  t.equal(registered['result'], 'success', JSON.stringify(registered));
  const queueId = registered['queue_id'] as string;

  // The upstream example's call shape: a list of user IDs (zulip-js JSON-encodes it).
  const direct = await ownerJs.typing.send({ op: 'start', to: [bob.id] });
  t.strictSame(direct, { result: 'success', msg: '' });
  const stream = await ownerJs.typing.send({ type: 'stream', op: 'start', to: [streamId], topic: 'js' });
  t.strictSame(stream, { result: 'success', msg: '' });
  const refused = await ownerJs.typing.send({ op: 'start', to: [] });
  t.strictSame(refused, { result: 'error', msg: "Empty 'to' list", code: 'BAD_REQUEST' });

  const fetched = await bobJs.events.retrieve({ queue_id: queueId, last_event_id: -1, dont_block: true });
  t.equal(fetched['result'], 'success', JSON.stringify(fetched));
  const sender = { user_id: ownerId, email: server.owner.email };
  t.strictSame(fetched['events'], [
    {
      type: 'typing',
      op: 'start',
      message_type: 'private',
      sender,
      recipients: [{ user_id: bob.id, email: bob.email }, sender],
      id: 0,
    },
    { type: 'typing', op: 'start', message_type: 'stream', sender, stream_id: streamId, topic: 'js', id: 1 },
  ]);
});
