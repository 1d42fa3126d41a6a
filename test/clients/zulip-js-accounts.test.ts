import path from 'node:path';
import t from 'tap';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

// zulip-js against the account endpoints: users.create, a bot made through callEndpoint that
// logs in with its own email and key and sends a message, and muting through callEndpoint.
interface JsClient {
  users: {
    create(params: Record<string, unknown>): Promise<Record<string, unknown>>;
    me: { getProfile(): Promise<Record<string, unknown>> };
  };
  messages: { send(params: Record<string, unknown>): Promise<Record<string, unknown>> };
  callEndpoint(endpoint: string, method?: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
}
type JsConfig = { zuliprc: string } | { username: string; apiKey?: string; password?: string; realm: string };
const zulipInit = require('zulip-js') as (config: JsConfig) => Promise<JsClient>;

t.test('zulip-js creates a user and a bot, and the bot sends a message with its own client', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });

  const created = await owner.users.create({ email: 'newcomer@example.com', password: 'a-long-password', full_name: 'New Comer' });
  t.equal(created['result'], 'success', JSON.stringify(created));
  t.type(created['user_id'], 'number');
  // Without an API key zulip-js fetches one with the password (POST /fetch_api_key).
  const newcomer = await zulipInit({ username: 'newcomer@example.com', password: 'a-long-password', realm: server.baseUrl });
  const profile = await newcomer.users.me.getProfile();
  t.strictSame([profile['user_id'], profile['full_name'], profile['role']], [created['user_id'], 'New Comer', 400], 'the new user logs in');

  const bot = await newcomer.callEndpoint('/bots', 'POST', { full_name: 'Greeter bot', short_name: 'greeter' });
  t.equal(bot['result'], 'success', JSON.stringify(bot));
  const listed = await newcomer.callEndpoint('/bots', 'GET');
  const own = (listed['bots'] as { username: string; api_key: string }[])[0];
  hasFields(t, own, { username: /^greeter-bot@/, api_key: bot['api_key'] }, 'GET /bots lists it');
  const botClient = await zulipInit({ username: own?.username ?? '', apiKey: bot['api_key'] as string, realm: server.baseUrl });
  const botProfile = await botClient.users.me.getProfile();
  hasFields(t, botProfile, { user_id: bot['user_id'], is_bot: true, delivery_email: own?.username }, 'the bot is itself');
  const sent = await botClient.messages.send({ to: 'general', type: 'stream', topic: 'greetings', content: 'Hello from a bot' });
  t.equal(sent['result'], 'success', JSON.stringify(sent));
  t.type(sent['id'], 'number');

  const muted = await owner.callEndpoint(`/users/me/muted_users/${String(created['user_id'])}`, 'POST');
  t.equal(muted['result'], 'success', JSON.stringify(muted));
  const regenerated = await newcomer.callEndpoint('/users/me/api_key/regenerate', 'POST');
  hasFields(t, regenerated, { result: 'success', api_key: /^[A-Za-z0-9]{32}$/ });
  const stale = await newcomer.users.me.getProfile();
  hasFields(t, stale, { result: 'error', msg: 'Invalid API key' }, 'the client with the old key is refused');
});
