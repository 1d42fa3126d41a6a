import t from 'tap';
import { SPEC_DURATIONS } from '../../src/wire/protocol';
import { EventQueues, POLLS_PER_SLICE } from '../../workers/events/clients';
import type { QueueOptions } from '../../workers/events/queue';
import { systemClock } from '../../workers/lib/clock';

const OPTIONS: QueueOptions = {
  eventTypes: null,
  applyMarkdown: true,
  clientExtavatar: false,
  allPublicStreams: false,
  narrow: [],
  capabilities: {
    notification_settings_null: false,
    bulk_message_deletion: false,
    user_avatar_url_field_optional: false,
    stream_typing_notifications: false,
    user_settings_object: false,
    linkifier_url_template: false,
  },
};

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

// Polls an event wakes are answered POLLS_PER_SLICE at a time, the event loop free between
// slices (workers/events/clients.ts), and every queue has the event before any is answered.
t.test('woken polls are answered in slices', async (t) => {
  const queues = new EventQueues(systemClock, SPEC_DURATIONS);
  t.teardown(() => queues.stop());
  const polls = POLLS_PER_SLICE + 50;
  const userIds = Array.from({ length: polls }, (_, i) => i + 1);
  const registered = userIds.map((userId) => queues.register(userId, OPTIONS));
  let answered = 0;
  const parked = registered.map((queue, i) => queues.wait(queue, i + 1).then(() => answered++));
  // Scheduled before the delivery, so it runs after the delivery's turn and before any later one.
  const afterTheTurn = new Promise<number>((resolve) => setImmediate(() => resolve(answered)));
  queues.deliver([{ event: { type: 'realm', op: 'update_dict', property: 'default', data: {} }, userIds }]);
  t.strictSame(
    registered.map((queue) => queue.pending.length),
    userIds.map(() => 1),
    'every queue has the event at once',
  );
  t.equal(await afterTheTurn, POLLS_PER_SLICE, 'the first slice is answered in the turn of the event');
  await nextTurn();
  await nextTurn();
  t.equal(answered, polls, 'the rest in a later turn');
  await Promise.all(parked);
});

t.test('a graceful stop answers every woken poll at once', async (t) => {
  const queues = new EventQueues(systemClock, SPEC_DURATIONS);
  const polls = POLLS_PER_SLICE * 2;
  const userIds = Array.from({ length: polls }, (_, i) => i + 1);
  const registered = userIds.map((userId) => queues.register(userId, OPTIONS));
  let answered = 0;
  const parked = registered.map((queue, i) => queues.wait(queue, i + 1).then(() => answered++));
  queues.deliver([{ event: { type: 'realm', op: 'update_dict', property: 'default', data: {} }, userIds }]);
  queues.stop();
  await Promise.all(parked);
  t.equal(answered, polls);
});
