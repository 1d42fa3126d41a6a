import t from 'tap';
import { EventReader } from '../helpers/events';
import { responseViolations } from '../helpers/openapi';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { sendToStream, streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

t.test('DELETE /streams/{stream_id}', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const aliceCreds = await createMember(api, 'Alice');
  const bobCreds = await createMember(api, 'Bob');
  const alice = api.as(aliceCreds);
  const bob = api.as(bobCreds);
  await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'attic' }], principals: [aliceCreds.id] });
  await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'cellar' }], principals: [aliceCreds.id], invite_only: true });
  const atticId = await streamIdOf(api, 'attic');
  const cellarId = await streamIdOf(api, 'cellar');
  const names = async (client: ApiClient): Promise<string[]> =>
    ((await client.get('/streams', { include_all_active: true })).body['streams'] as { name: string }[]).map((s) => s.name);

  t.test('errors', async (t) => {
    t.test('a member may not archive a stream', async (t) => {
      const res = await alice.call('DELETE', `/streams/${atticId}`);
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    });
    t.test('an unknown stream ID is refused', async (t) => {
      const res = await api.call('DELETE', '/streams/4242');
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'Invalid stream ID', code: 'BAD_REQUEST' });
    });
  });

  t.test('archiving a public stream: delete to everyone who could see it; it leaves the lists; its name is free', async (t) => {
    await sendToStream(alice, 'attic', 'boxes', 'old letters');
    const aliceQueue = await EventReader.register(alice, { event_types: ['stream', 'subscription'] });
    const bobQueue = await EventReader.register(bob, { event_types: ['stream'] });
    const before = (await api.get('/streams')).body['streams'] as Record<string, unknown>[];
    const attic = before.find((s) => s['stream_id'] === atticId);
    const res = await api.call('DELETE', `/streams/${atticId}`);
    t.strictSame(res.body, { result: 'success', msg: '' });
    t.strictSame(responseViolations('delete', '/streams/{stream_id}', res.body), [], 'the body conforms to the reference OpenAPI');
    const deleted = { type: 'stream', op: 'delete', streams: [attic] };
    t.strictSame(await aliceQueue.nextPayloads(), [deleted]);
    t.strictSame(await bobQueue.nextPayloads(), [deleted]);
    t.notOk((await names(api)).includes('attic'));
    const subs = await alice.get('/streams', { include_public: false });
    t.notOk(
      (subs.body['streams'] as { stream_id: number }[]).some((s) => s.stream_id === atticId),
      'the subscription ended',
    );
    const reuse = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'attic' }] });
    t.strictSame(reuse.body['subscribed'], { [server.owner.email]: ['attic'] }, 'a new stream takes the name');
    t.not(await streamIdOf(api, 'attic'), atticId);
    const again = await api.call('DELETE', `/streams/${atticId}`);
    t.strictSame(again.body, { result: 'error', msg: 'Invalid stream ID', code: 'BAD_REQUEST' });
  });

  t.test('archiving a private stream tells only its subscribers and the administrators', async (t) => {
    const aliceQueue = await EventReader.register(alice, { event_types: ['stream'] });
    const bobQueue = await EventReader.register(bob, { event_types: ['stream'] });
    const ownerQueue = await EventReader.register(api, { event_types: ['stream'] });
    const res = await api.call('DELETE', `/streams/${cellarId}`);
    t.equal(res.status, 200);
    const [aliceEvent] = await aliceQueue.nextPayloads();
    hasFields(t, aliceEvent, { type: 'stream', op: 'delete', streams: [{ stream_id: cellarId, name: 'cellar', invite_only: true }] });
    t.strictSame(await ownerQueue.nextPayloads(), [aliceEvent]);
    t.strictSame(await bobQueue.nextPayloads(), []);
  });
});
