import t from 'tap';
import type { Params } from '../../src/web/common/api';
import { EventLoop, LONGEST_RETRY_MS, REGISTER_PARAMS, retryDelay, type ConnectionState } from '../../src/web/state/event-loop';
import type { RegisterResponse, ServerEvent } from '../../src/web/state/events';
import { register } from './fixtures';

class Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

type Answer = { value: unknown } | { error: Failure };

/** A server the test answers call by call, and timers it fires by hand. */
function harness() {
  const calls: { method: string; path: string; params: Params | undefined; answer: (answer: Answer) => void }[] = [];
  const waiting: ((call: (typeof calls)[number]) => void)[] = [];
  const request = (method: string) => (path: string, params?: Params) =>
    new Promise<never>((resolve, reject) => {
      const call = {
        method,
        path,
        params,
        answer: (answer: Answer) => ('error' in answer ? reject(answer.error) : resolve(answer.value as never)),
      };
      calls.push(call);
      waiting.shift()?.(call);
    });
  const timers: { ms: number; run: () => void }[] = [];
  const registers: [RegisterResponse, string][] = [];
  const batches: ServerEvent[][] = [];
  const states: ConnectionState[] = [];
  let signedOut = false;
  const loop = new EventLoop({
    api: { get: request('GET'), post: request('POST') },
    timers: { setTimeout: (run, ms) => timers.push({ ms, run }) },
    random: () => 0.5,
    onRegister: (response, kind) => registers.push([response, kind]),
    onEvents: (events) => batches.push(events),
    onConnection: (state) => states.push(state),
    onSignedOut: () => (signedOut = true),
  });
  let seen = 0;
  /** The next call the loop makes (waits for it, without timers). */
  const nextCall = () =>
    new Promise<(typeof calls)[number]>((resolve) => {
      if (calls.length > seen) resolve(calls[seen++]!);
      else waiting.push((call) => (seen++, resolve(call)));
    });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { loop, calls, nextCall, timers, registers, batches, states, settle, signedOut: () => signedOut };
}

t.test('backoff starts at one second, doubles, stops at thirty, with jitter', async (t) => {
  t.equal(retryDelay(1, 0.5), 1000);
  t.equal(retryDelay(2, 0.5), 2000);
  t.equal(retryDelay(6, 0.5), LONGEST_RETRY_MS);
  t.equal(retryDelay(20, 0.5), LONGEST_RETRY_MS);
  t.equal(retryDelay(1, 0), 750);
  t.ok(retryDelay(1, 0.999) <= 1250, 'never more than a quarter longer');
});

t.test('the loop registers once with the page capabilities, then polls from the last event, skipping heartbeats', async (t) => {
  const h = harness();
  void h.loop.run();
  const registration = await h.nextCall();
  t.equal(registration.path, '/register');
  t.strictSame(registration.params, REGISTER_PARAMS);
  t.strictSame(REGISTER_PARAMS['client_capabilities'], {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: false,
    stream_typing_notifications: true,
    user_settings_object: true,
    linkifier_url_template: true,
  });
  t.notOk('event_types' in REGISTER_PARAMS, 'no event type filter');
  registration.answer({ value: register({ queue_id: 'q1', last_event_id: 4 }) });
  const poll = await h.nextCall();
  t.strictSame(poll.params, { queue_id: 'q1', last_event_id: 4 });
  t.equal(h.loop.queue, 'q1');
  t.strictSame(h.states, ['connected']);
  poll.answer({
    value: {
      events: [
        { id: 5, type: 'heartbeat' },
        { id: 6, type: 'message' },
      ],
    },
  });
  const next = await h.nextCall();
  t.strictSame(next.params, { queue_id: 'q1', last_event_id: 6 });
  t.strictSame(
    h.batches.map((batch) => batch.map((event) => event.type)),
    [['message']],
  );
  h.loop.stop();
  next.answer({ value: { events: [] } });
});

t.test('a lost server means reconnecting on the same queue with growing waits, and every missed event afterwards', async (t) => {
  const h = harness();
  void h.loop.run();
  (await h.nextCall()).answer({ value: register({ queue_id: 'q1', last_event_id: 0 }) });
  (await h.nextCall()).answer({ error: new Failure(0, 'NETWORK') });
  await h.settle();
  t.strictSame(h.states, ['connected', 'reconnecting']);
  t.strictSame(
    h.timers.map((timer) => timer.ms),
    [1000],
  );
  h.timers[0]!.run();
  (await h.nextCall()).answer({ error: new Failure(502, 'BAD_RESPONSE') });
  await h.settle();
  t.strictSame(
    h.timers.map((timer) => timer.ms),
    [1000, 2000],
    'the wait doubles',
  );
  h.timers[1]!.run();
  const resumed = await h.nextCall();
  t.strictSame(resumed.params, { queue_id: 'q1', last_event_id: 0 }, 'the same queue, from the same place');
  resumed.answer({
    value: {
      events: [
        { id: 1, type: 'message' },
        { id: 2, type: 'reaction' },
      ],
    },
  });
  const after = await h.nextCall();
  t.strictSame(h.states, ['connected', 'reconnecting', 'connected']);
  t.strictSame(
    h.batches[0]?.map((event) => event.id),
    [1, 2],
  );
  t.equal(h.registers.length, 1, 'no new registration');
  h.loop.stop();
  after.answer({ value: { events: [] } });
});

t.test('a queue the server lost means registering again and telling the app to rebuild', async (t) => {
  const h = harness();
  void h.loop.run();
  (await h.nextCall()).answer({ value: register({ queue_id: 'q1' }) });
  (await h.nextCall()).answer({ error: new Failure(400, 'BAD_EVENT_QUEUE_ID') });
  const again = await h.nextCall();
  t.equal(again.path, '/register');
  again.answer({ value: register({ queue_id: 'q2', last_event_id: 9 }) });
  const poll = await h.nextCall();
  t.strictSame(poll.params, { queue_id: 'q2', last_event_id: 9 });
  t.strictSame(
    h.registers.map(([response, kind]) => `${response.queue_id} ${kind}`),
    ['q1 first', 'q2 again'],
  );
  t.equal(h.timers.length, 0, 'no wait before registering again');
  h.loop.stop();
  poll.answer({ value: { events: [] } });
});

t.test('a failed registration is retried with backoff, and an ended session signs out', async (t) => {
  const h = harness();
  const done = h.loop.run();
  (await h.nextCall()).answer({ error: new Failure(0, 'NETWORK') });
  await h.settle();
  t.strictSame(h.states, ['reconnecting']);
  h.timers[0]!.run();
  (await h.nextCall()).answer({ value: register({ queue_id: 'q1' }) });
  (await h.nextCall()).answer({ error: new Failure(401, 'UNAUTHORIZED') });
  await done;
  t.ok(h.signedOut());
  t.strictSame(
    h.registers.map(([, kind]) => kind),
    ['first'],
  );
});

t.test('a poll the server refuses for another reason registers again after a wait, never in a tight loop', async (t) => {
  const h = harness();
  void h.loop.run();
  (await h.nextCall()).answer({ value: register({ queue_id: 'q1' }) });
  (await h.nextCall()).answer({ error: new Failure(400, 'BAD_REQUEST') });
  await h.settle();
  t.strictSame(
    h.timers.map((timer) => timer.ms),
    [1000],
  );
  t.strictSame(h.states, ['connected'], 'the server answers, so this is not reconnecting');
  h.timers[0]!.run();
  const again = await h.nextCall();
  t.equal(again.path, '/register');
  again.answer({ value: register({ queue_id: 'q2' }) });
  (await h.nextCall()).answer({ error: new Failure(400, 'BAD_REQUEST') });
  await h.settle();
  t.strictSame(
    h.timers.map((timer) => timer.ms),
    [1000, 2000],
    'the wait grows while registering does not help',
  );
  h.loop.stop();
});
