import path from 'node:path';
import t from 'tap';
import { startServer } from '../helpers/server';

// The official JavaScript client of the API, configured from the owner.ini the server wrote.
// zulip-js has no type declarations; this is the slice of its surface the test uses.
interface JsClient {
  messages: {
    send(params: Record<string, unknown>): Promise<Record<string, unknown>>;
    getById(params: { message_id: number; apply_markdown?: boolean }): Promise<Record<string, unknown>>;
  };
  users: { me: { getProfile(): Promise<Record<string, unknown>> } };
  streams: { retrieve(params?: Record<string, unknown>): Promise<Record<string, unknown>> };
  server: { settings(): Promise<Record<string, unknown>> };
}
const zulipInit = require('zulip-js') as (config: { zuliprc: string }) => Promise<JsClient>;

t.test('zulip-js sends a message with owner.ini and fetches it back', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const client = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });

  const profile = await client.users.me.getProfile();
  t.equal(profile['result'], 'success');
  t.equal(profile['email'], server.owner.email);

  const sent = await client.messages.send({ to: 'general', type: 'stream', topic: 'from zulip-js', content: 'Hello from the client' });
  t.equal(sent['result'], 'success', JSON.stringify(sent));
  const id = sent['id'] as number;
  t.type(id, 'number');

  const fetched = await client.messages.getById({ message_id: id });
  t.equal(fetched['result'], 'success', JSON.stringify(fetched));
  const message = fetched['message'] as Record<string, unknown>;
  t.equal(message['content'], '<p>Hello from the client</p>');
  t.equal(message['subject'], 'from zulip-js');
  t.equal(message['display_recipient'], 'general');
  t.equal(message['client'], 'node-fetch', 'the client name comes from its User-Agent');

  const direct = await client.messages.send({ to: [1], type: 'direct', content: 'note to self' });
  t.equal(direct['result'], 'success');

  const streams = await client.streams.retrieve();
  t.ok((streams['streams'] as { name: string }[]).some((s) => s.name === 'general'));
  const settings = await client.server.settings();
  t.equal(settings['service_feature_level'], 185);
});
