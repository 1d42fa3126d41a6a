import path from 'node:path';
import t from 'tap';
import { ApiClient } from '../helpers/http';
import { streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';

// zulip-js has no type declarations; this is the slice of its surface the test uses.
type Call = (params: Record<string, unknown>) => Promise<Record<string, unknown>>;
interface JsClient {
  users: { me: { subscriptions: { add: Call; remove: Call } } };
  streams: { deleteById: Call; retrieve: Call };
}
const zulipInit = require('zulip-js') as (config: { zuliprc: string }) => Promise<JsClient>;

t.test('zulip-js subscribes, unsubscribes and archives a stream', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const client = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });
  const api = new ApiClient(server.baseUrl, server.owner);

  const added = await client.users.me.subscriptions.add({ subscriptions: [{ name: 'js-room', description: 'from the client' }] });
  t.strictSame(added, { result: 'success', msg: '', subscribed: { [server.owner.email]: ['js-room'] }, already_subscribed: {} });
  const streamId = await streamIdOf(api, 'js-room');

  // For DELETE the client puts each value in the query string as it is: lists go as JSON text.
  const removed = await client.users.me.subscriptions.remove({ subscriptions: JSON.stringify(['js-room']) });
  t.strictSame(removed, { result: 'success', msg: '', removed: ['js-room'], not_removed: [] });
  const unknown = await client.users.me.subscriptions.remove({ subscriptions: JSON.stringify(['no-room']) });
  t.strictSame(unknown, { result: 'error', msg: "Stream 'no-room' does not exist", code: 'STREAM_DOES_NOT_EXIST', stream: 'no-room' });

  const archived = await client.streams.deleteById({ stream_id: streamId });
  t.strictSame(archived, { result: 'success', msg: '' });
  const listed = await client.streams.retrieve({});
  t.notOk((listed['streams'] as { stream_id: number }[]).some((s) => s.stream_id === streamId));
  const again = await client.streams.deleteById({ stream_id: streamId });
  t.strictSame(again, { result: 'error', msg: 'Invalid stream ID', code: 'BAD_REQUEST' });
});
