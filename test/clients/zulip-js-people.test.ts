import path from 'node:path';
import t from 'tap';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

// zulip-js has no type declarations; this is the slice of its surface the test uses.
interface JsClient {
  users: {
    retrieve(params?: Record<string, unknown>): Promise<Record<string, unknown>>;
    me: {
      getProfile(): Promise<Record<string, unknown>>;
      alertWords: { retrieve(params?: Record<string, unknown>): Promise<Record<string, unknown>> };
    };
  };
  callEndpoint(endpoint: string, method?: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
}
const zulipInit = require('zulip-js') as (config: { zuliprc: string }) => Promise<JsClient>;

t.test('zulip-js reads users and changes settings', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const client = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });

  t.test('users.retrieve lists the members, with client_extavatar', async (t) => {
    const listed = await client.users.retrieve({ client_extavatar: false });
    t.equal(listed['result'], 'success', JSON.stringify(listed));
    const members = listed['members'] as Record<string, unknown>[];
    hasFields(
      t,
      members.find((m) => m['user_id'] === alice.id),
      { email: alice.email, delivery_email: alice.email, role: 400, is_active: true },
    );
    hasFields(
      t,
      members.find((m) => m['email'] === server.owner.email),
      { role: 100, is_owner: true, avatar_url: /^https:\/\// },
    );
  });

  t.test('users.me.getProfile shows the own user', async (t) => {
    const profile = await client.users.me.getProfile();
    hasFields(t, profile, {
      result: 'success',
      email: server.owner.email,
      delivery_email: server.owner.email,
      role: 100,
      profile_data: {},
    });
  });

  t.test('users.me.alertWords.retrieve lists the alert words the user added', async (t) => {
    t.strictSame(await client.users.me.alertWords.retrieve(), { result: 'success', msg: '', alert_words: [] });
    const added = await api.post('/users/me/alert_words', { alert_words: ['release', 'Deploy'] });
    t.equal(added.status, 200, added.text);
    t.strictSame(await client.users.me.alertWords.retrieve(), { result: 'success', msg: '', alert_words: ['release', 'Deploy'] });
  });

  t.test('PATCH /settings and GET /users/{id} through callEndpoint', async (t) => {
    const changed = await client.callEndpoint('/settings', 'PATCH', { full_name: 'The Owner', twenty_four_hour_time: true, bogus: 1 });
    t.strictSame(changed, { result: 'success', msg: '', ignored_parameters_unsupported: ['bogus'] });
    const profile = await client.users.me.getProfile();
    t.equal(profile['full_name'], 'The Owner');
    const one = await client.callEndpoint(`/users/${alice.id}`, 'GET');
    hasFields(t, one, { result: 'success', user: { user_id: alice.id, email: alice.email } });
    const missing = await client.callEndpoint('/users/424242', 'GET');
    t.strictSame(missing, { result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
  });
});
