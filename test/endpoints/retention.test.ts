import t from 'tap';
import { ApiClient } from '../helpers/http';
import { RealmFile, sendToStream } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

const DAY_S = 24 * 60 * 60;

t.test('message retention through the API', async (t) => {
  // A short sweep interval instead of the hourly default (src/config.ts RETENTION_INTERVAL_MS).
  const server = await startServer({ env: { RETENTION_INTERVAL_MS: '50', HEARTBEAT_INTERVAL_MS: '2000' } });
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const file = new RealmFile(server);
  t.teardown(() => file.close());
  const created = await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'ephemeral' }], message_retention_days: 5 });
  t.equal(created.status, 200, created.text);
  await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'archive' }], message_retention_days: 'unlimited' });

  const expired = [await sendToStream(owner, 'ephemeral', 'old', 'one'), await sendToStream(owner, 'ephemeral', 'old', 'two')];
  const recent = await sendToStream(owner, 'ephemeral', 'old', 'four days old');
  const kept = await sendToStream(owner, 'archive', 'old', 'kept forever');
  const queue = (await owner.post('/register', { event_types: ['delete_message'], client_capabilities: { bulk_message_deletion: true } }))
    .body;
  for (const id of expired) file.backdate(id, 6 * DAY_S);
  file.backdate(recent, 4 * DAY_S);
  file.backdate(kept, 400 * DAY_S);

  // Waits the way a client does: a long poll that returns once the sweep's event is queued.
  const deleted: number[] = [];
  let lastEventId = queue['last_event_id'] as number;
  while (deleted.length < expired.length) {
    const res = await owner.get('/events', { queue_id: queue['queue_id'] as string, last_event_id: lastEventId });
    t.equal(res.status, 200, res.text);
    for (const event of res.body['events'] as Record<string, unknown>[]) {
      lastEventId = Math.max(lastEventId, event['id'] as number);
      if (event['type'] !== 'delete_message') continue;
      hasFields(t, event, { message_type: 'stream', topic: 'old' });
      deleted.push(...(event['message_ids'] as number[]));
    }
  }
  t.strictSame(
    deleted.sort((a, b) => a - b),
    expired,
    'the expired messages were deleted, with delete_message events',
  );
  for (const id of expired) {
    const res = await owner.get(`/messages/${id}`);
    t.strictSame(res.body, { result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
  }
  for (const id of [recent, kept]) t.equal((await owner.get(`/messages/${id}`)).status, 200, `message ${id} is untouched`);
});
