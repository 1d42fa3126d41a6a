import fc from 'fast-check';
import t from 'tap';
import { eventsJson, shareJson } from '../../workers/events/shared-json';
import { clientEvent, type EventPayload, type QueueEntry } from '../../workers/events/queue';

// A poll's answer written from shared parts must be exactly the JSON.stringify of its events.

t.test('a poll answer is byte for byte the JSON of its events', async (t) => {
  const message = { id: 7, content: '<p>héllo "quoted" \u2028</p>', reactions: [], avatar_url: null, flags_hidden: undefined };
  shareJson(message);
  const sharedPayload: EventPayload = { type: 'message', message, flags: ['read'] };
  shareJson(sharedPayload);
  const entries: QueueEntry[] = [
    { payload: sharedPayload, id: 0 },
    { payload: { type: 'message', message, flags: [], local_message_id: '1.5' }, id: 1 },
    { payload: { type: 'typing', op: 'start', sender: { user_id: 3, email: 'a@b.test' }, extra: undefined }, id: 2 },
    { payload: sharedPayload, id: 3 },
  ];
  const expected = JSON.stringify(entries.map(clientEvent));
  t.equal(eventsJson(entries).text, expected);
  t.equal(eventsJson([]).text, '[]');
  t.equal(eventsJson([entries[3] as QueueEntry]).text, `[${JSON.stringify({ ...sharedPayload, id: 3 })}]`);
});

t.test('a shared payload with an id of its own, or no field at all, reads as the spread would', async (t) => {
  const ownId: EventPayload = { type: 'restored', id: 4, after: true };
  const empty = {} as EventPayload;
  shareJson(ownId);
  shareJson(empty);
  for (const payload of [ownId, empty]) {
    const entry = { payload, id: 9 };
    t.equal(eventsJson([entry]).text, JSON.stringify([clientEvent(entry)]));
  }
});

t.test('any mix of shared and own payloads answers as JSON.stringify of the events', async (t) => {
  // JSON values as events carry them; `undefined` fields are left out by both writers.
  const value = fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 2 }));
  const payload = fc
    .tuple(fc.dictionary(fc.string({ maxLength: 6 }), value, { maxKeys: 5 }), fc.string({ maxLength: 8 }), fc.boolean())
    .map(([fields, type, shared]) => {
      const made = { ...fields, type } as EventPayload;
      if (shared) shareJson(made);
      return made;
    });
  let failures = 0;
  fc.assert(
    fc.property(fc.array(fc.tuple(payload, fc.nat()), { maxLength: 6 }), (pairs) => {
      const entries = pairs.map(([p, id]) => ({ payload: p, id }));
      const same = eventsJson(entries).text === JSON.stringify(entries.map(clientEvent));
      if (!same) failures++;
      return same;
    }),
    { numRuns: 300 },
  );
  t.equal(failures, 0);
});

t.test('a shared object is serialised once: a later change to it does not show', async (t) => {
  // Shared objects must not change once shared; this shows the JSON is kept, not remade.
  const message: Record<string, unknown> = { id: 1, content: 'first' };
  shareJson(message);
  const first = eventsJson([{ payload: { type: 'message', message, flags: [] }, id: 0 }]).text;
  message['content'] = 'changed';
  t.equal(eventsJson([{ payload: { type: 'message', message, flags: [] }, id: 1 }]).text, first.replace('"id":0', '"id":1'));
});
