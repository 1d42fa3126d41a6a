import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createBot } from '../helpers/fixtures';
import { startServer } from '../helpers/server';

// Past 500 recipients with the same flags, a message's per-recipient rows go in one statement
// (workers/actions/messages.ts); every recipient must still get its row with its own flags.
const CROWD = 520;

t.test('a message to a stream of 520 subscribers', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const bots: { id: number; email: string; key: string }[] = [];
  for (let i = 0; i < CROWD; i += 20) {
    const made = await Promise.all(Array.from({ length: Math.min(20, CROWD - i) }, (_, j) => createBot(api, `crowd${i + j}`)));
    bots.push(...made);
  }
  const subscribed = await api.post('/users/me/subscriptions', {
    subscriptions: [{ name: 'crowd' }],
    principals: bots.map((bot) => bot.id),
  });
  t.equal(subscribed.status, 200, 'all subscribed');

  const send = async (content: string): Promise<number> => {
    const sent = await api.post('/messages', { type: 'stream', to: 'crowd', topic: 'hello', content });
    t.equal(sent.status, 200, sent.text);
    return Number(sent.body['id']);
  };
  const mentioned = bots[7] as (typeof bots)[number];
  const loud = await send(`Morning @**all**, and @**crowd7 bot** in particular`);
  const quiet = await send('A plain message');

  const flagsSeenBy = async (bot: (typeof bots)[number]): Promise<unknown> => {
    const res = await api.as(bot).get('/messages', {
      anchor: 'newest',
      num_before: 2,
      num_after: 0,
      narrow: [{ operator: 'stream', operand: 'crowd' }],
    });
    const messages = res.body['messages'] as { id: number; flags: string[] }[];
    return messages.map((message) => [message.id, message.flags]);
  };
  let asExpected = 0;
  for (const bot of bots) {
    const wanted = [
      [loud, bot === mentioned ? ['mentioned', 'wildcard_mentioned'] : ['wildcard_mentioned']],
      [quiet, []],
    ];
    const seen = await flagsSeenBy(bot);
    if (JSON.stringify(seen) === JSON.stringify(wanted)) asExpected++;
    else t.strictSame(seen, wanted, `the flags ${bot.email} sees`);
  }
  t.equal(asExpected, CROWD, 'every subscriber has both messages with its own flags');

  const unread = await api.as(mentioned).get('/messages', {
    anchor: 'oldest',
    num_before: 0,
    num_after: 10,
    narrow: [
      { operator: 'stream', operand: 'crowd' },
      { operator: 'topic', operand: 'hello' },
      { operator: 'is', operand: 'unread' },
    ],
  });
  t.strictSame(
    (unread.body['messages'] as { id: number }[]).map((message) => message.id),
    [loud, quiet],
    'both are unread for a subscriber',
  );
});
