import path from 'node:path';
import t from 'tap';
import { eventViolation } from '../helpers/events';
import { startServer } from '../helpers/server';
import { NOTIFICATION_BOT_NAME, STREAM_EVENTS_TOPIC, newStreamNoticeHtml } from '../helpers/stream-notices';
import { hasFields } from '../helpers/exact';

// zulip-js has no type declarations; this is the slice of its surface the test uses. It sends
// form fields, so booleans go as strings.
interface JsClient {
  messages: { send(params: Record<string, unknown>): Promise<Record<string, unknown>> };
  queues: { register(params: Record<string, unknown>): Promise<Record<string, unknown>> };
  events: { retrieve(params: Record<string, unknown>): Promise<Record<string, unknown>> };
  users: { me: { subscriptions: { add(params: Record<string, unknown>): Promise<Record<string, unknown>> } } };
}
const zulipInit = require('zulip-js') as (config: { zuliprc: string }) => Promise<JsClient>;

t.test('zulip-js receives events whose payloads are the declared ones', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const client = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });

  const registered = await client.queues.register({ event_types: ['message', 'stream', 'subscription'], apply_markdown: 'true' });
  t.equal(registered['result'], 'success', JSON.stringify(registered));
  const queueId = registered['queue_id'] as string;

  const subscribed = await client.users.me.subscriptions.add({ subscriptions: JSON.stringify([{ name: 'from the client' }]) });
  t.equal(subscribed['result'], 'success', JSON.stringify(subscribed));
  const sent = await client.messages.send({ to: 'from the client', type: 'stream', topic: 'events', content: 'Hello *live*' });
  t.equal(sent['result'], 'success', JSON.stringify(sent));

  const retrieved = await client.events.retrieve({ queue_id: queueId, last_event_id: registered['last_event_id'], dont_block: 'true' });
  t.equal(retrieved['result'], 'success', JSON.stringify(retrieved));
  const events = retrieved['events'] as Record<string, unknown>[];
  t.strictSame(
    events.map((e) => [e['type'], e['op']]),
    [
      ['stream', 'create'],
      ['subscription', 'add'],
      ['message', undefined],
      ['message', undefined],
    ],
  );
  for (const event of events) t.equal(eventViolation(event), null, `${String(event['type'])} is a declared payload`);
  // The new stream's notice comes first, already read for its creator; then the message sent.
  const notice = events[2]?.['message'] as Record<string, unknown>;
  const message = events[3]?.['message'] as Record<string, unknown>;
  const creator = { id: message['sender_id'] as number, fullName: message['sender_full_name'] as string };
  hasFields(t, notice, { sender_full_name: NOTIFICATION_BOT_NAME, display_recipient: 'from the client', subject: STREAM_EVENTS_TOPIC });
  t.equal(notice['content'], newStreamNoticeHtml('Public', creator));
  t.strictSame(events[2]?.['flags'], ['read']);
  t.equal(message['id'], sent['id']);
  t.equal(message['content'], '<p>Hello <em>live</em></p>');
});
