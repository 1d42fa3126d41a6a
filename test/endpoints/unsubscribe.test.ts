import t from 'tap';
import { EventReader } from '../helpers/events';
import { responseViolations } from '../helpers/openapi';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';

t.test('DELETE /users/me/subscriptions', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const ownerId = Number((await api.get('/users/me')).body['user_id']);
  const aliceCreds = await createMember(api, 'Alice');
  const bobCreds = await createMember(api, 'Bob');
  const alice = api.as(aliceCreds);
  const bob = api.as(bobCreds);
  // zulip-js sends DELETE parameters in the query string.
  const unsubscribe = (client: ApiClient, params: Record<string, string | number | boolean | object>) =>
    client.call('DELETE', '/users/me/subscriptions', params, 'query');

  await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'porch' }], principals: [aliceCreds.id, bobCreds.id, ownerId] });
  await api.post('/users/me/subscriptions', {
    subscriptions: [{ name: 'vault' }],
    principals: [aliceCreds.id, bobCreds.id],
    invite_only: true,
  });
  const porchId = await streamIdOf(api, 'porch');
  const vaultId = await streamIdOf(api, 'vault');

  t.test('errors', async (t) => {
    t.test('subscriptions is required', async (t) => {
      const res = await unsubscribe(alice, {});
      t.equal(res.status, 400);
      t.strictSame(res.body, {
        result: 'error',
        msg: "Missing 'subscriptions' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'subscriptions',
      });
    });
    t.test('an unknown stream name is 400 STREAM_DOES_NOT_EXIST with the name', async (t) => {
      const res = await unsubscribe(alice, { subscriptions: ['nowhere'] });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: "Stream 'nowhere' does not exist", code: 'STREAM_DOES_NOT_EXIST', stream: 'nowhere' });
    });
    t.test('an unknown principal is 403 UNAUTHORIZED_PRINCIPAL', async (t) => {
      const res = await unsubscribe(api, { subscriptions: ['porch'], principals: ['ghost@example.com'] });
      t.equal(res.status, 403);
      t.strictSame(res.body, {
        result: 'error',
        msg: "User not authorized to execute queries on behalf of 'ghost@example.com'",
        code: 'UNAUTHORIZED_PRINCIPAL',
        principal: 'ghost@example.com',
      });
    });
    t.test('a member may not remove someone else outside the removal group', async (t) => {
      const res = await unsubscribe(alice, { subscriptions: ['porch'], principals: [bobCreds.id] });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' });
    });
  });

  t.test("a bot's owner may remove it; another member may not", async (t) => {
    const created = await alice.post('/bots', { full_name: 'Porch bot', short_name: 'porchbot' });
    t.equal(created.status, 200, created.text);
    const botId = created.body['user_id'] as number;
    t.equal((await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'porch' }], principals: [botId] })).status, 200);
    const byOther = await unsubscribe(bob, { subscriptions: ['porch'], principals: [botId] });
    t.equal(byOther.status, 400);
    t.strictSame(byOther.body, { result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' });
    const byOwner = await unsubscribe(alice, { subscriptions: ['porch'], principals: [botId] });
    t.strictSame(byOwner.body, { result: 'success', msg: '', removed: ['porch'], not_removed: [] });
  });

  t.test('leaving a public stream: remove to the user, peer_remove to those who can see it', async (t) => {
    const aliceQueue = await EventReader.register(alice, { event_types: ['subscription'] });
    const bobQueue = await EventReader.register(bob, { event_types: ['subscription'] });
    const res = await unsubscribe(alice, { subscriptions: ['porch'] });
    t.equal(res.status, 200);
    t.strictSame(res.body, { result: 'success', msg: '', removed: ['porch'], not_removed: [] });
    t.strictSame(responseViolations('delete', '/users/me/subscriptions', res.body), [], 'the body conforms to the reference OpenAPI');
    t.strictSame(await aliceQueue.nextPayloads(), [
      { type: 'subscription', op: 'remove', subscriptions: [{ name: 'porch', stream_id: porchId }] },
    ]);
    t.strictSame(await bobQueue.nextPayloads(), [
      { type: 'subscription', op: 'peer_remove', stream_ids: [porchId], user_ids: [aliceCreds.id] },
    ]);
    const again = await unsubscribe(alice, { subscriptions: ['porch'] });
    t.strictSame(again.body, { result: 'success', msg: '', removed: [], not_removed: ['porch'] });
    t.strictSame(await aliceQueue.nextPayloads(), []);
  });

  t.test('an administrator removes others from a private stream; only those who could see it hear', async (t) => {
    const carolCreds = await createMember(api, 'Carol');
    const ownerQueue = await EventReader.register(api, { event_types: ['subscription'] });
    const aliceQueue = await EventReader.register(alice, { event_types: ['subscription'] });
    const bobQueue = await EventReader.register(bob, { event_types: ['subscription'] });
    const carolQueue = await EventReader.register(api.as(carolCreds), { event_types: ['subscription'] });
    const res = await unsubscribe(api, { subscriptions: ['vault'], principals: [bobCreds.email] });
    t.strictSame(res.body, { result: 'success', msg: '', removed: ['vault'], not_removed: [] });
    t.strictSame(await bobQueue.nextPayloads(), [
      { type: 'subscription', op: 'remove', subscriptions: [{ name: 'vault', stream_id: vaultId }] },
    ]);
    const peerRemove = { type: 'subscription', op: 'peer_remove', stream_ids: [vaultId], user_ids: [bobCreds.id] };
    t.strictSame(await aliceQueue.nextPayloads(), [peerRemove]);
    t.strictSame(await ownerQueue.nextPayloads(), [peerRemove]);
    t.strictSame(await carolQueue.nextPayloads(), [], 'a member outside the private stream hears nothing');
    const members = await bob.get('/streams', { include_subscribed: true, include_public: false });
    t.notOk((members.body['streams'] as { name: string }[]).some((s) => s.name === 'vault'));
  });

  t.test('members of the removal group may remove others', async (t) => {
    const groups = (await api.post('/register', { fetch_event_types: ['realm_user_groups'] })).body['realm_user_groups'] as {
      id: number;
      name: string;
    }[];
    const members = groups.find((g) => g.name === '@role:members');
    if (!members) throw new Error('no members group');
    const group = await api.call('PATCH', `/streams/${porchId}`, { can_remove_subscribers_group_id: members.id });
    t.equal(group.status, 200);
    const res = await alice.call('DELETE', '/users/me/subscriptions', { subscriptions: ['porch'], principals: [bobCreds.id] }, 'query');
    t.strictSame(res.body, { result: 'success', msg: '', removed: ['porch'], not_removed: [] });
  });
});
