import path from 'node:path';
import t from 'tap';
import { startServer } from '../helpers/server';

// The npm client `zulip-js`, configured from the owner.ini the server wrote. It has no type
// declarations; this is the slice of its surface the test uses. `messages.retrieve` sends GET
// /messages with the parameters in the query string and `narrow` JSON-encoded.
interface JsClient {
  messages: {
    send(params: Record<string, unknown>): Promise<Record<string, unknown>>;
    retrieve(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  };
  users: { me: { getProfile(): Promise<Record<string, unknown>> } };
}
const zulipInit = require('zulip-js') as (config: { zuliprc: string }) => Promise<JsClient>;

type Message = Record<string, unknown>;

t.test('zulip-js fetches messages with narrows', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const client = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });
  const sendTo = async (topic: string, content: string): Promise<number> => {
    const sent = await client.messages.send({ to: 'general', type: 'stream', topic, content });
    t.equal(sent['result'], 'success', JSON.stringify(sent));
    return sent['id'] as number;
  };
  const first = await sendTo('zulip-js narrows', 'first from the client');
  const second = await sendTo('zulip-js narrows', 'second with a pineapple');
  await sendTo('elsewhere', 'not in the topic');

  t.test('a stream and topic narrow, as objects, anchored at the newest', async (t) => {
    const res = await client.messages.retrieve({
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: [
        { operator: 'sender', operand: server.owner.email },
        { operator: 'stream', operand: 'general' },
        { operator: 'topic', operand: 'zulip-js narrows' },
      ],
    });
    t.equal(res['result'], 'success', JSON.stringify(res));
    t.strictSame(
      (res['messages'] as Message[]).map((m) => m['id']),
      [first, second],
    );
    t.equal(res['found_newest'], true);
    t.equal(res['anchor'], 10_000_000_000_000_000);
  });

  t.test('legacy pairs, a numeric anchor and a search term', async (t) => {
    const res = await client.messages.retrieve({
      anchor: second,
      num_before: 0,
      num_after: 0,
      narrow: [
        ['stream', 'general'],
        ['search', 'pineapple'],
      ],
    });
    t.equal(res['result'], 'success', JSON.stringify(res));
    const [message] = res['messages'] as Message[];
    t.equal(message?.['id'], second);
    t.equal(message?.['match_content'], '<p>second with a <span class="highlight">pineapple</span></p>');
    t.equal(res['found_anchor'], true);
  });

  t.test('a bad narrow comes back as BAD_NARROW', async (t) => {
    const res = await client.messages.retrieve({ anchor: 'newest', num_before: 1, num_after: 0, narrow: [['stream', 'nowhere']] });
    t.strictSame(res, {
      result: 'error',
      msg: 'Invalid narrow operator: unknown stream nowhere',
      code: 'BAD_NARROW',
      desc: 'unknown stream nowhere',
    });
  });
});
