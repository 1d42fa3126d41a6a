import t from 'tap';
import { ChatStore } from '../../src/web/app/store';
import type { StoreDeps } from '../../src/web/app/store-deps';
import type { Params } from '../../src/web/common/api';
import type { ServerEvent } from '../../src/web/state/events';
import { isUnread, unreadByStream } from '../../src/web/state/unread';
import { ANN, ME, directMessage, register, streamMessage } from './fixtures';

class Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

/** A server the test scripts, timers it fires by hand, and a clock that stands still. */
function harness(options: { sendFails?: boolean; fetchFails?: boolean } = {}) {
  const calls: { method: string; path: string; params: Params }[] = [];
  const polls: ((events: ServerEvent[]) => void)[] = [];
  const timers: { ms: number; run: () => void }[] = [];
  let nextId = 500;
  let signedOut = false;
  const answer = async (method: string, path: string, params: Params = {}): Promise<unknown> => {
    calls.push({ method, path, params });
    if (path === '/register')
      return register({
        unread_msgs: { streams: [{ stream_id: 1, topic: 'lunch', unread_message_ids: [40, 41] }], pms: [], huddles: [], mentions: [] },
      });
    if (path === '/events') return new Promise((resolve) => polls.push((events) => resolve({ events })));
    if (path === '/messages' && method === 'GET') {
      if (options.fetchFails) throw new Failure(500, 'INTERNAL');
      if (params['anchor'] === 'newest')
        return { messages: [streamMessage(41, 1, 'lunch'), streamMessage(45, 1, 'lunch')], found_oldest: false, found_newest: true };
      const messages =
        params['anchor'] === 'first_unread'
          ? [streamMessage(40, 1, 'lunch'), streamMessage(41, 1, 'lunch')]
          : [streamMessage(30, 1, 'lunch')];
      return { messages, found_oldest: params['anchor'] !== 'first_unread', found_newest: true };
    }
    if (path === '/messages' && method === 'POST') {
      if (options.sendFails) throw new Failure(400, 'BAD_REQUEST');
      return { id: nextId++ };
    }
    return {};
  };
  const deps: StoreDeps = {
    api: {
      get: (path, params) => answer('GET', path, params) as Promise<never>,
      post: (path, params) => answer('POST', path, params) as Promise<never>,
    },
    setTimeout: (run, ms) => timers.push({ ms, run }),
    clearTimeout: () => undefined,
    now: () => 1_700_000_000_000,
    random: () => 0.5,
    signIn: () => (signedOut = true),
  };
  const store = new ChatStore({ kind: 'stream', streamId: 1 }, deps);
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  const deliver = async (events: Omit<ServerEvent, 'id'>[]) => {
    const poll = polls.shift();
    if (!poll) throw new Error('no poll is waiting');
    poll(events.map((event, index) => ({ id: index + 1, ...event }) as ServerEvent));
    await settle();
  };
  return { store, calls, timers, settle, deliver, signedOut: () => signedOut, stop: () => store['loop'].stop() };
}

t.test('after registering, the store knows the organization and opens its view at the first unread message', async (t) => {
  const h = harness();
  h.store.start();
  await h.settle();
  const state = h.store.current;
  t.equal(state.snapshot?.me.user_id, ME);
  t.equal(unreadByStream(state.unread).get(1), 2);
  t.strictSame(
    state.list.messages.map((message) => message.id),
    [40, 41],
  );
  t.equal(state.listVersion, 1, 'a fresh list, for the view to scroll to its first unread');
  const fetch = h.calls.find((call) => call.path === '/messages');
  t.strictSame(fetch?.params['narrow'], [{ operator: 'stream', operand: 1 }]);
  t.equal(fetch?.params['anchor'], 'first_unread');
  t.equal(h.store.current.connection, 'connected');
  h.stop();
});

t.test('live events reach the snapshot, the unread counts and the open view together', async (t) => {
  const h = harness();
  h.store.start();
  await h.settle();
  await h.deliver([
    { type: 'message', message: streamMessage(42, 1, 'lunch'), flags: [] },
    { type: 'typing', op: 'start', message_type: 'stream', sender: { user_id: ANN }, stream_id: 1, topic: 'lunch' },
    { type: 'realm_user', op: 'update', person: { user_id: ANN, full_name: 'Ann B' } },
  ]);
  const state = h.store.current;
  t.strictSame(
    state.list.messages.map((message) => message.id),
    [40, 41, 42],
  );
  t.ok(isUnread(state.unread, 42));
  t.equal(state.snapshot?.users.get(ANN)?.full_name, 'Ann B');
  t.equal(state.typing.length, 1);
  t.ok(
    h.timers.some((timer) => timer.ms > 14_000),
    'a timer to clear the typing entry when it expires',
  );
  await h.deliver([{ type: 'message', message: streamMessage(43, 1, 'lunch'), flags: [] }]);
  t.equal(h.store.current.typing.length, 0, 'a message from a typist ends their typing');
  h.stop();
});

t.test('messages seen are marked read at once here and in one request to the server', async (t) => {
  const h = harness();
  h.store.start();
  await h.settle();
  h.store.markRead([40]);
  h.store.markRead([41, 999]);
  t.notOk(isUnread(h.store.current.unread, 40));
  t.notOk(isUnread(h.store.current.unread, 41));
  const batch = h.timers.find((timer) => timer.ms === 400);
  t.ok(batch, 'one batch timer');
  batch?.run();
  const flags = h.calls.filter((call) => call.path === '/messages/flags');
  t.strictSame(
    flags.map((call) => call.params),
    [{ messages: [40, 41], op: 'add', flag: 'read' }],
    'only the unread ones, once',
  );
  h.stop();
});

t.test('a sent message shows at once, then its event replaces the echo', async (t) => {
  const h = harness();
  h.store.start();
  await h.settle();
  const sending = h.store.send({ type: 'stream', to: 1, topic: 'lunch' }, 'hello', '<p>hello</p>');
  const echo = h.store.current.list.messages.at(-1);
  t.equal(echo?.sendState, 'sending');
  t.equal(echo?.content, '<p>hello</p>');
  await sending;
  const post = h.calls.find((call) => call.path === '/messages' && call.method === 'POST');
  t.equal(post?.params['queue_id'], 'queue-1', "the tab's queue");
  t.equal(post?.params['local_id'], echo?.localId);
  await h.deliver([
    { type: 'message', message: streamMessage(500, 1, 'lunch', { sender_id: ME }), flags: ['read'], local_message_id: echo?.localId },
  ]);
  t.strictSame(
    h.store.current.list.messages.map((message) => message.localId ?? message.id),
    [40, 41, 500],
  );
  h.stop();
});

t.test('a message the server refuses stays in view, marked as not sent', async (t) => {
  const h = harness({ sendFails: true });
  h.store.start();
  await h.settle();
  await t.rejects(h.store.send({ type: 'stream', to: 1, topic: 'lunch' }, 'hello', '<p>hello</p>'));
  t.equal(h.store.current.list.messages.at(-1)?.sendState, 'failed');
  t.notOk(h.signedOut());
  h.stop();
});

t.test('a conversation whose fetch failed still shows the message sent from it, and the replies', async (t) => {
  const h = harness({ fetchFails: true });
  h.store.start();
  await h.settle();
  h.store.open({ kind: 'dm', userIds: [ANN] });
  await h.settle();
  t.strictSame([h.store.current.list.loading, h.store.current.list.messages.length], [false, 0], 'the fetch failed: nothing loaded');
  const sending = h.store.send({ type: 'direct', to: [ANN] }, 'first words', '<p>first words</p>');
  const echo = h.store.current.list.messages.at(-1);
  t.equal(echo?.sendState, 'sending', 'the echo shows at once');
  await sending;
  await h.deliver([
    { type: 'message', message: directMessage(500, [ME, ANN], { sender_id: ME }), flags: ['read'], local_message_id: echo?.localId },
  ]);
  await h.deliver([{ type: 'message', message: directMessage(501, [ME, ANN], { sender_id: ANN }), flags: [] }]);
  t.strictSame(
    h.store.current.list.messages.map((message) => message.localId ?? message.id),
    [500, 501],
  );
  h.stop();
});

t.test('opening another view fetches it, and older pages are added before', async (t) => {
  const h = harness();
  h.store.start();
  await h.settle();
  h.store.open({ kind: 'topic', streamId: 1, topic: 'lunch' });
  t.equal(h.store.current.list.loading, true);
  await h.settle();
  t.equal(h.store.current.list.loading, false);
  await h.store.loadOlder();
  t.strictSame(
    h.store.current.list.messages.map((message) => message.id),
    [30, 40, 41],
  );
  const older = h.calls.filter((call) => call.path === '/messages').at(-1);
  t.strictSame(
    [older?.params['anchor'], older?.params['num_before'], older?.params['num_after'], older?.params['include_anchor']],
    ['40', 50, 0, false],
  );
  await h.store.loadOlder();
  t.equal(h.calls.filter((call) => call.path === '/messages').length, 3, 'nothing older to fetch once the oldest is found');
  h.stop();
});

t.test('messages moved into the open stream are fetched, since their event does not carry them', async (t) => {
  const h = harness();
  h.store.start();
  await h.settle();
  await h.deliver([
    {
      type: 'update_message',
      message_id: 41,
      message_ids: [41],
      edit_timestamp: 1,
      stream_id: 1,
      subject: 'food',
      orig_subject: 'lunch',
      flags: [],
    },
  ]);
  t.equal(h.calls.filter((call) => call.params['anchor'] === 'newest').length, 0, 'a topic renamed within the view needs no fetch');
  await h.deliver([
    {
      type: 'update_message',
      message_id: 45,
      message_ids: [45],
      edit_timestamp: 1,
      stream_id: 2,
      new_stream_id: 1,
      subject: 'lunch',
      orig_subject: 'x',
      flags: [],
    },
  ]);
  t.strictSame(
    h.store.current.list.messages.map((message) => message.id),
    [40, 41, 45],
  );
  h.stop();
});
