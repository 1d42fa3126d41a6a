import t from 'tap';
import type { TypingEvent } from '../../src/web/state/events';
import {
  applyTypingEvent,
  nextExpiry,
  typingParams,
  typingText,
  typistsIn,
  TypingSender,
  type TypingDestination,
  type TypingState,
} from '../../src/web/state/typing';
import { ANN, BO, ME } from './fixtures';

function typing(op: 'start' | 'stop', sender: number, where: { stream_id: number; topic: string } | { recipients: number[] }): TypingEvent {
  return 'stream_id' in where
    ? { id: 1, type: 'typing', op, message_type: 'stream', sender: { user_id: sender }, ...where }
    : {
        id: 1,
        type: 'typing',
        op,
        message_type: 'private',
        sender: { user_id: sender },
        recipients: where.recipients.map((user_id) => ({ user_id })),
      };
}

t.test('someone typing shows in every view that includes the conversation', async (t) => {
  const state = applyTypingEvent([], typing('start', ANN, { stream_id: 1, topic: 'Lunch' }), 0, ME);
  t.strictSame(typistsIn(state, { kind: 'topic', streamId: 1, topic: 'lunch' }, 1), [ANN]);
  t.strictSame(typistsIn(state, { kind: 'stream', streamId: 1 }, 1), [ANN]);
  t.strictSame(typistsIn(state, { kind: 'all' }, 1), [ANN]);
  t.strictSame(typistsIn(state, { kind: 'topic', streamId: 1, topic: 'other' }, 1), []);
  t.strictSame(typistsIn(state, { kind: 'dm', userIds: [ANN] }, 1), []);
});

t.test('typing stops on a stop event or 15 seconds after the last start', async (t) => {
  let state: TypingState = applyTypingEvent([], typing('start', ANN, { recipients: [ME, ANN] }), 0, ME);
  const view = { kind: 'dm', userIds: [ANN] } as const;
  t.strictSame(typistsIn(state, view, 14_999), [ANN]);
  t.strictSame(typistsIn(state, view, 15_000), []);
  t.equal(nextExpiry(state, 0), 15_000);
  state = applyTypingEvent(state, typing('start', ANN, { recipients: [ME, ANN] }), 10_000, ME);
  t.strictSame(typistsIn(state, view, 20_000), [ANN], 'a repeated start extends the display');
  state = applyTypingEvent(state, typing('stop', ANN, { recipients: [ME, ANN] }), 11_000, ME);
  t.strictSame(typistsIn(state, view, 11_000), []);
  t.strictSame(applyTypingEvent([], typing('start', ME, { recipients: [ME, ANN] }), 0, ME), [], 'my own typing is not shown to me');
});

t.test('names are joined into one sentence', async (t) => {
  t.equal(typingText(['Ann']), 'Ann is typing…');
  t.equal(typingText(['Ann', 'Bo']), 'Ann and Bo are typing…');
  t.equal(typingText(['Ann', 'Bo', 'Cy']), 'Ann, Bo and Cy are typing…');
  t.equal(typingText([]), '');
});

function fakeClock() {
  let now = 0;
  let nextHandle = 1;
  const pending = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimeout: (run: () => void, ms: number) => {
      pending.set(nextHandle, { at: now + ms, run });
      return nextHandle++;
    },
    clearTimeout: (handle: unknown) => void pending.delete(handle as number),
    advance(ms: number) {
      now += ms;
      for (const [handle, timer] of [...pending]) {
        if (timer.at <= now) {
          pending.delete(handle);
          timer.run();
        }
      }
    },
  };
}

t.test('the sender sends start once per 10 seconds of typing and stop after 5 seconds idle', async (t) => {
  const clock = fakeClock();
  const sent: string[] = [];
  const sender = new TypingSender({ ...clock, send: (op, destination) => sent.push(`${op} ${destination.type}`) });
  const topic: TypingDestination = { type: 'stream', streamId: 1, topic: 'Lunch' };
  sender.typed(topic);
  for (let i = 0; i < 4; i++) {
    clock.advance(2000);
    sender.typed(topic);
  }
  t.strictSame(sent, ['start stream'], 'keystrokes within 10 s send nothing more');
  clock.advance(2000);
  sender.typed(topic);
  t.strictSame(sent, ['start stream', 'start stream'], 'a start again after 10 s');
  clock.advance(5000);
  t.strictSame(sent, ['start stream', 'start stream', 'stop stream']);
});

t.test('the sender stops on send and when the conversation changes', async (t) => {
  const clock = fakeClock();
  const sent: string[] = [];
  const sender = new TypingSender({
    ...clock,
    send: (op, destination) => sent.push(`${op} ${destination.type === 'direct' ? destination.to.join(',') : destination.topic}`),
  });
  sender.typed({ type: 'direct', to: [ANN] });
  sender.typed({ type: 'direct', to: [ANN, BO] });
  t.strictSame(sent, [`start ${ANN}`, `stop ${ANN}`, `start ${ANN},${BO}`]);
  sender.stop();
  sender.stop();
  t.strictSame(sent.at(-1), `stop ${ANN},${BO}`);
  t.equal(sent.length, 4, 'stop is sent once');
});

t.test('typing goes to the server as a list: the stream ID alone, or the recipients', async (t) => {
  t.strictSame(typingParams('start', { type: 'stream', streamId: 4, topic: 'Lunch' }), {
    op: 'start',
    type: 'stream',
    to: [4],
    topic: 'Lunch',
  });
  t.strictSame(typingParams('stop', { type: 'direct', to: [ANN, BO] }), { op: 'stop', type: 'direct', to: [ANN, BO] });
});
