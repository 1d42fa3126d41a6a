import t from 'tap';
import { EventReader } from '../helpers/events';
import { createBot, createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';

// The public server's limits on events whose work grows with the realm's size: presence events
// stop above 100 active users (USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS) and stream typing
// above 100 subscribers (MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS). Both are published at once,
// before the request is answered, so "nothing came" is read right after the answer.

t.test('events that stop in a large realm', async (t) => {
  const server = await startServer({ env: { TYPING_STARTED_EXPIRY_MS: '600000' } });
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(owner, 'Alice');
  const watcher = await EventReader.register(owner.as(alice), {
    event_types: ['presence', 'typing'],
    client_capabilities: { stream_typing_notifications: true },
  });

  const activeUsers = async (): Promise<number> => {
    const res = await owner.get('/users');
    const members = res.body['members'] as { is_active: boolean }[];
    return members.filter((member) => member.is_active).length;
  };
  let bots = 0;
  const growTo = async (count: number): Promise<void> => {
    for (let active = await activeUsers(); active < count; active++) await createBot(owner, `filler${++bots}`);
    t.equal(await activeUsers(), count, `the realm has ${count} active users`);
  };
  const firstPing = async (name: string): Promise<number> => {
    const member = await createMember(owner, name);
    const res = await owner.as(member).post('/users/me/presence', { status: 'active', ping_only: true });
    t.equal(res.status, 200, res.text);
    return member.id;
  };
  const presenceUserIds = async (): Promise<number[]> =>
    (await watcher.nextPayloads()).filter((event) => event['type'] === 'presence').map((event) => Number(event['user_id']));

  await t.test('presence: announced with 100 active users, not with 101', async (t) => {
    await growTo(99);
    const hundredth = await firstPing('Hundredth');
    t.strictSame(await presenceUserIds(), [hundredth], 'the 100th user coming online is announced');
    await growTo(100);
    await firstPing('Hundred-and-first');
    t.strictSame(await watcher.nextPayloads(), [], 'the 101st user coming online is not');
  });

  await t.test('stream typing: delivered with 100 subscribers, not with 101', async (t) => {
    const members = (await owner.get('/users')).body['members'] as { user_id: number; email: string; is_active: boolean }[];
    const others = members.filter((member) => member.is_active && member.user_id !== alice.id);
    // Alice, the typist (the owner) and 98 more: 100 subscribers.
    const subscribe = async (principals: string[]): Promise<void> => {
      const res = await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'all-hands' }], principals });
      t.equal(res.status, 200, res.text);
    };
    const ownerEmail = server.owner.email;
    const firstNinetyEight = others.filter((member) => member.email !== ownerEmail).slice(0, 98);
    await subscribe([alice.email, ownerEmail, ...firstNinetyEight.map((member) => member.email)]);
    const streamId = await streamIdOf(owner, 'all-hands');
    const subscribers = await owner.get(`/streams/${streamId}/members`);
    t.equal((subscribers.body['subscribers'] as number[]).length, 100);
    await watcher.nextPayloads();

    const ownerId = Number((await owner.get('/users/me')).body['user_id']);
    const typing = await owner.post('/typing', { type: 'stream', op: 'start', to: [streamId], topic: 'plans' });
    t.equal(typing.status, 200, typing.text);
    t.strictSame(
      await watcher.nextPayloads(),
      [
        {
          type: 'typing',
          op: 'start',
          message_type: 'stream',
          sender: { user_id: ownerId, email: ownerEmail },
          stream_id: streamId,
          topic: 'plans',
        },
      ],
      'a stream of 100 subscribers hears its typists',
    );

    const hundredAndFirst = others.filter((member) => member.email !== ownerEmail)[98];
    if (!hundredAndFirst) throw new Error('the realm has fewer users than the test made');
    await subscribe([hundredAndFirst.email]);
    await watcher.nextPayloads();
    const more = await owner.post('/typing', { type: 'stream', op: 'start', to: [streamId], topic: 'plans' });
    t.equal(more.status, 200, more.text);
    t.strictSame(await watcher.nextPayloads(), [], 'a stream of 101 subscribers does not');
    const stop = await owner.post('/typing', { type: 'stream', op: 'stop', to: [streamId], topic: 'plans' });
    t.equal(stop.status, 200, stop.text);
    t.strictSame(await watcher.nextPayloads(), [], 'nor its stops');
  });
});
