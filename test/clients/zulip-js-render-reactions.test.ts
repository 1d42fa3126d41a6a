import path from 'node:path';
import t from 'tap';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';

// The two message calls of the official JavaScript client the other client tests do not make.
type Body = Record<string, unknown>;
interface JsClient {
  messages: {
    render(params: string | Record<string, unknown>): Promise<Body>;
    deleteReactionById(params: Record<string, unknown>): Promise<Body>;
  };
  reactions: { add(params: Record<string, unknown>): Promise<Body> };
}
const zulipInit = require('zulip-js') as (config: { zuliprc: string }) => Promise<JsClient>;

t.test('zulip-js messages.render renders Markdown, given a string or an object', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const js = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });
  t.strictSame(await js.messages.render('**bold** *move* _not_'), {
    result: 'success',
    msg: '',
    rendered: '<p><strong>bold</strong> <em>move</em> _not_</p>',
  });
  t.strictSame(await js.messages.render({ content: '`code`' }), { result: 'success', msg: '', rendered: '<p><code>code</code></p>' });
  t.strictSame(await js.messages.render({}), {
    result: 'error',
    msg: "Missing 'content' argument",
    code: 'REQUEST_VARIABLE_MISSING',
    var_name: 'content',
  });
});

t.test("zulip-js messages.deleteReactionById removes the caller's reaction", async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'reactions', content: 'react to me' });
  const messageId = sent.body['id'] as number;
  const js = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });
  t.strictSame(await js.reactions.add({ message_id: messageId, emoji_name: 'octopus' }), { result: 'success', msg: '' });
  t.strictSame(await js.messages.deleteReactionById({ message_id: messageId, emoji_name: 'octopus' }), { result: 'success', msg: '' });
  const message = (await api.get(`/messages/${messageId}`)).body['message'] as Body;
  t.strictSame(message['reactions'], [], 'the reaction is gone');
  t.strictSame(await js.messages.deleteReactionById({ message_id: messageId, emoji_name: 'octopus' }), {
    result: 'error',
    msg: "Reaction doesn't exist.",
    code: 'BAD_REQUEST',
  });
});
