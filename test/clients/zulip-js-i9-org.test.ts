import path from 'node:path';
import t from 'tap';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

// Status, presence and realm settings through the official JavaScript client. zulip-js
// has no methods of its own for these, so it reaches them as its users do: callEndpoint.
interface JsClient {
  callEndpoint(endpoint: string, method?: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  queues: { register(params: Record<string, unknown>): Promise<Record<string, unknown>> };
}
const zulipInit = require('zulip-js') as (config: { zuliprc: string }) => Promise<JsClient>;

t.test('zulip-js sets a status, pings presence and changes realm settings', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const client = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });

  const status = await client.callEndpoint('/users/me/status', 'POST', { status_text: 'Shipping', emoji_name: 'ship' });
  t.strictSame(status, { result: 'success', msg: '' });
  const own = await client.callEndpoint('/users/1/status', 'GET');
  t.strictSame(own['status'], { status_text: 'Shipping', emoji_name: 'ship', emoji_code: '1f6a2', reaction_type: 'unicode_emoji' });

  const ping = await client.callEndpoint('/users/me/presence', 'POST', { status: 'active' });
  t.equal(ping['result'], 'success', JSON.stringify(ping));
  hasFields(t, ping['presences'], { [server.owner.email]: { aggregated: { status: 'active' } } });

  // Every method but POST sends its parameters in the query string.
  const patched = await client.callEndpoint('/realm', 'PATCH', { name: 'Shipyard', create_private_stream_policy: 2 });
  t.strictSame(patched, { result: 'success', msg: '', name: 'updated', create_private_stream_policy: 2 });
  const defaults = await client.callEndpoint('/realm/user_settings_defaults', 'PATCH', { twenty_four_hour_time: true });
  t.strictSame(defaults, { result: 'success', msg: '' });

  const registered = await client.queues.register({
    event_types: ['realm', 'user_status', 'presence', 'realm_user_settings_defaults'],
  });
  t.equal(registered['result'], 'success');
  t.equal(registered['realm_name'], 'Shipyard');
  t.equal(registered['realm_create_private_stream_policy'], 2);
  hasFields(t, registered['user_status'], { 1: { status_text: 'Shipping' } });
  t.ok(server.owner.email in (registered['presences'] as object));
  hasFields(t, registered['realm_user_settings_defaults'], { twenty_four_hour_time: true });
});
