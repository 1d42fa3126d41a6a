import t from 'tap';
import { eventField } from '../helpers/unit-realm';
import { TypingActor, typingTickMs } from '../../workers/actors/typing';
import { EventBus, type QueuedEvent } from '../../workers/events/outbox';
import type { TypingEvent, TypingNotice } from '../../workers/events/typing';
import { FakeClock } from '../helpers/fake-clock';

const EXPIRY_MS = 15_000;
const START = 1_700_000_000_000;

function directNotice(senderId: number, recipientId: number, op: 'start' | 'stop'): TypingNotice {
  const event: TypingEvent = {
    type: 'typing',
    op,
    message_type: 'private',
    sender: { user_id: senderId, email: `u${senderId}@x.test` },
    recipients: [
      { user_id: recipientId, email: `u${recipientId}@x.test` },
      { user_id: senderId, email: `u${senderId}@x.test` },
    ],
  };
  return { conversationKey: `direct:${senderId}:${recipientId}`, event, userIds: [recipientId] };
}

function setUp(): { clock: FakeClock; actor: TypingActor; published: QueuedEvent[] } {
  const clock = new FakeClock(START);
  const events = new EventBus();
  const published: QueuedEvent[] = [];
  events.subscribe((batch) => published.push(...batch));
  return { clock, actor: new TypingActor({ events }, clock, EXPIRY_MS), published };
}

const ops = (published: QueuedEvent[]): string[] =>
  published.map((queued) => `${String(eventField(queued, 'op'))}:${queued.userIds.join(',')}`);

t.test('the tick is a second for the spec duration and finer for shortened ones', async (t) => {
  t.equal(typingTickMs(15_000), 1_000);
  t.equal(typingTickMs(300), 20);
  t.equal(typingTickMs(1), 5);
});

t.test('a start is published at once and its stop follows when it is not renewed within the expiry', async (t) => {
  const { clock, actor, published } = setUp();
  actor.notify(directNotice(1, 2, 'start'));
  t.strictSame(ops(published), ['start:2']);
  t.strictSame(published[0]?.event, directNotice(1, 2, 'start').event);
  clock.advanceTo(START + EXPIRY_MS - 1);
  t.strictSame(ops(published), ['start:2'], 'nothing before the expiry');
  clock.advanceTo(START + EXPIRY_MS + 1_000);
  t.strictSame(ops(published), ['start:2', 'stop:2']);
  t.strictSame(published[1]?.event, directNotice(1, 2, 'stop').event, 'the stop is the start with op stop');
  t.equal(actor.pendingCount, 0);
  t.equal(clock.timers.size, 0, 'no timer is left armed when nothing is pending');
});

t.test('a renewed start pushes the expiry back', async (t) => {
  const { clock, actor, published } = setUp();
  actor.notify(directNotice(1, 2, 'start'));
  clock.advanceTo(START + 10_000);
  actor.notify(directNotice(1, 2, 'start'));
  clock.advanceTo(START + EXPIRY_MS + 1_000);
  t.strictSame(ops(published), ['start:2', 'start:2'], 'the first start no longer expires');
  clock.advanceTo(START + 10_000 + EXPIRY_MS + 1_000);
  t.strictSame(ops(published), ['start:2', 'start:2', 'stop:2']);
});

t.test('an explicit stop is published and cancels the expiry', async (t) => {
  const { clock, actor, published } = setUp();
  actor.notify(directNotice(1, 2, 'start'));
  actor.notify(directNotice(1, 2, 'stop'));
  clock.advanceTo(START + 10 * EXPIRY_MS);
  t.strictSame(ops(published), ['start:2', 'stop:2']);
  t.equal(actor.pendingCount, 0);
});

t.test('a stop without a start is published as sent', async (t) => {
  const { clock, actor, published } = setUp();
  actor.notify(directNotice(1, 2, 'stop'));
  clock.advanceTo(START + 10 * EXPIRY_MS);
  t.strictSame(ops(published), ['stop:2']);
});

t.test('many conversations share one timer and expire in the sweep of their tick', async (t) => {
  const { clock, actor, published } = setUp();
  for (let recipient = 2; recipient < 102; recipient++) actor.notify(directNotice(1, recipient, 'start'));
  clock.advanceTo(START + 500);
  for (let recipient = 102; recipient < 202; recipient++) actor.notify(directNotice(1, recipient, 'start'));
  t.equal(clock.timers.size, 1, 'one timer for 200 pending conversations');
  t.equal(actor.pendingCount, 200);
  clock.advanceTo(START + EXPIRY_MS);
  t.equal(published.filter((queued) => eventField(queued, 'op') === 'stop').length, 100, 'the first tick stops the first hundred');
  clock.advanceTo(START + EXPIRY_MS + 1_000);
  t.equal(published.filter((queued) => eventField(queued, 'op') === 'stop').length, 200, 'the next tick the rest');
  t.equal(actor.pendingCount, 0);
});

t.test('conversations of different senders expire separately', async (t) => {
  const { clock, actor, published } = setUp();
  actor.notify(directNotice(1, 2, 'start'));
  actor.notify(directNotice(2, 1, 'start'));
  actor.notify(directNotice(1, 2, 'stop'));
  clock.advanceTo(START + EXPIRY_MS + 1_000);
  t.strictSame(ops(published), ['start:2', 'start:1', 'stop:2', 'stop:1']);
});

t.test('a stopped actor publishes nothing and leaves no timer', async (t) => {
  const { clock, actor, published } = setUp();
  actor.notify(directNotice(1, 2, 'start'));
  actor.stop();
  t.equal(clock.timers.size, 0);
  actor.notify(directNotice(1, 3, 'start'));
  clock.advanceTo(START + 10 * EXPIRY_MS);
  t.strictSame(ops(published), ['start:2']);
});
