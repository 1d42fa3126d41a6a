import t from 'tap';
import { eventsJson, shareJson } from '../../workers/events/shared-json';
import type { ClientEvent } from '../../workers/events/queue';

// A poll's answer written from shared parts must be exactly the JSON.stringify of its events.

t.test('a poll answer is byte for byte the JSON of its events', async (t) => {
  const message = { id: 7, content: '<p>héllo "quoted" \u2028</p>', reactions: [], avatar_url: null, flags_hidden: undefined };
  shareJson(message);
  const events: ClientEvent[] = [
    { type: 'message', message, flags: ['read'], id: 0 },
    { type: 'message', message, flags: [], local_message_id: '1.5', id: 1 },
    { type: 'typing', op: 'start', sender: { user_id: 3, email: 'a@b.test' }, extra: undefined, id: 2 },
  ];
  t.equal(eventsJson(events).text, JSON.stringify(events));
  t.equal(eventsJson([]).text, '[]');
});

t.test('a shared object is serialised once: a later change to it does not show', async (t) => {
  // Shared objects must not change once shared; this shows the JSON is kept, not remade.
  const message: Record<string, unknown> = { id: 1, content: 'first' };
  shareJson(message);
  const first = eventsJson([{ type: 'message', message, flags: [], id: 0 }]).text;
  message['content'] = 'changed';
  t.equal(eventsJson([{ type: 'message', message, flags: [], id: 1 }]).text, first.replace('"id":0', '"id":1'));
});
