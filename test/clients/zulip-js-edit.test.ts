import path from 'node:path';
import t from 'tap';
import { startServer } from '../helpers/server';

// The official JavaScript client of the API, configured from the owner.ini the server wrote.
// zulip-js has no type declarations; this is the slice of its surface the test uses. Its
// PATCH and DELETE calls put every parameter, message_id included, in the query string.
interface JsClient {
  messages: {
    send(params: Record<string, unknown>): Promise<Record<string, unknown>>;
    getById(params: { message_id: number; apply_markdown?: boolean }): Promise<Record<string, unknown>>;
    update(params: Record<string, unknown>): Promise<Record<string, unknown>>;
    getHistoryById(params: { message_id: number }): Promise<Record<string, unknown>>;
    deleteById(params: { message_id: number }): Promise<Record<string, unknown>>;
  };
}
const zulipInit = require('zulip-js') as (config: { zuliprc: string }) => Promise<JsClient>;

t.test('zulip-js edits a message, reads its history and deletes it', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const client = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });

  const sent = await client.messages.send({ to: 'general', type: 'stream', topic: 'zulip-js edits', content: 'first try' });
  t.equal(sent['result'], 'success', JSON.stringify(sent));
  const id = sent['id'] as number;

  const edited = await client.messages.update({ message_id: id, content: 'second try' });
  t.equal(edited['result'], 'success', JSON.stringify(edited));
  t.strictSame(edited['ignored_parameters_unsupported'], undefined, 'message_id in the query string is the path parameter');

  const moved = await client.messages.update({ message_id: id, topic: 'zulip-js moved', send_notification_to_new_thread: false });
  t.equal(moved['result'], 'success', JSON.stringify(moved));

  const fetched = await client.messages.getById({ message_id: id });
  const message = fetched['message'] as Record<string, unknown>;
  t.equal(message['content'], '<p>second try</p>');
  t.equal(message['subject'], 'zulip-js moved');
  t.equal((message['edit_history'] as unknown[]).length, 2);

  const history = await client.messages.getHistoryById({ message_id: id });
  t.equal(history['result'], 'success', JSON.stringify(history));
  const snapshots = history['message_history'] as Record<string, unknown>[];
  t.strictSame(
    snapshots.map((s) => [s['topic'], s['content']]),
    [
      ['zulip-js edits', 'first try'],
      ['zulip-js edits', 'second try'],
      ['zulip-js moved', 'second try'],
    ],
  );

  const refused = await client.messages.update({ message_id: id });
  t.strictSame(refused, { result: 'error', msg: 'Nothing to change', code: 'BAD_REQUEST' });

  const deleted = await client.messages.deleteById({ message_id: id });
  t.strictSame(deleted, { result: 'success', msg: '' });
  const gone = await client.messages.getById({ message_id: id });
  t.strictSame(gone, { result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
});
