import path from 'node:path';
import t from 'tap';
import { startServer } from '../helpers/server';

// zulip-js has no type declarations; this is the slice of its surface the test uses.
interface JsClient {
  messages: {
    send(params: Record<string, unknown>): Promise<Record<string, unknown>>;
    getById(params: { message_id: number; apply_markdown?: boolean }): Promise<Record<string, unknown>>;
    flags: {
      add(params: { messages: number[]; flag: string }): Promise<Record<string, unknown>>;
      remove(params: { messages: number[]; flag: string }): Promise<Record<string, unknown>>;
    };
  };
  reactions: {
    add(params: Record<string, unknown>): Promise<Record<string, unknown>>;
    remove(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  };
}
const zulipInit = require('zulip-js') as (config: { zuliprc: string }) => Promise<JsClient>;

t.test('zulip-js adds and removes reactions and flags', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const client = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });

  const sent = await client.messages.send({ to: 'general', type: 'stream', topic: 'zulip-js reactions', content: 'react to me' });
  t.equal(sent['result'], 'success', JSON.stringify(sent));
  const id = sent['id'] as number;
  const message = async () => (await client.messages.getById({ message_id: id }))['message'] as Record<string, unknown>;

  const added = await client.reactions.add({ message_id: id, emoji_name: 'thumbs_up' });
  t.strictSame(added, { result: 'success', msg: '' });
  const reacted = await message();
  const owner = { id: 1, email: server.owner.email, full_name: reacted['sender_full_name'], is_mirror_dummy: false };
  t.strictSame(reacted['reactions'], [
    { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji', user_id: 1, user: owner },
  ]);
  const duplicate = await client.reactions.add({ message_id: id, emoji_name: '+1' });
  t.strictSame(duplicate, { result: 'error', msg: 'Reaction already exists.', code: 'BAD_REQUEST' });
  const removed = await client.reactions.remove({ message_id: id, emoji_code: '1f44d', reaction_type: 'unicode_emoji' });
  t.strictSame(removed, { result: 'success', msg: '' });
  t.strictSame((await message())['reactions'], []);
  const missing = await client.reactions.remove({ message_id: id, emoji_name: 'thumbs_up' });
  t.strictSame(missing, { result: 'error', msg: "Reaction doesn't exist.", code: 'BAD_REQUEST' });

  const starred = await client.messages.flags.add({ messages: [id], flag: 'starred' });
  t.strictSame(starred, { result: 'success', msg: '', messages: [id] });
  t.strictSame((await message())['flags'], ['starred'], 'sent through the API: still unread');
  const read = await client.messages.flags.add({ messages: [id], flag: 'read' });
  t.equal(read['result'], 'success');
  t.strictSame((await message())['flags'], ['read', 'starred']);
  const unstarred = await client.messages.flags.remove({ messages: [id], flag: 'starred' });
  t.strictSame(unstarred, { result: 'success', msg: '', messages: [id] });
  t.strictSame((await message())['flags'], ['read']);
  const forbidden = await client.messages.flags.add({ messages: [id], flag: 'mentioned' });
  t.strictSame(forbidden, { result: 'error', msg: "Flag not editable: 'mentioned'", code: 'BAD_REQUEST' });
});
