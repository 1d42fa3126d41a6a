import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { setRole } from '../helpers/people';

type Stream = Record<string, unknown> & { stream_id: number; name: string };

t.test('default streams', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const alice = owner.as(await createMember(owner, 'Alice'));
  await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'welcome' }] });
  await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'backroom' }], invite_only: true });
  const welcome = await streamIdOf(owner, 'welcome');
  const backroom = await streamIdOf(owner, 'backroom');
  const defaultNames = async (client: ApiClient): Promise<string[]> => {
    const state = (await client.post('/register', { event_types: ['default_streams'] })).body;
    return (state['realm_default_streams'] as Stream[]).map((s) => s.name);
  };
  const before = await defaultNames(owner);

  t.test('errors', async (t) => {
    t.test('a member may not change the default streams', async (t) => {
      for (const method of ['POST', 'DELETE']) {
        const res = await alice.call(method, '/default_streams', { stream_id: welcome });
        t.equal(res.status, 400);
        t.strictSame(res.body, { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
      }
    });
    t.test('an unknown stream is an invalid stream ID', async (t) => {
      const res = await owner.post('/default_streams', { stream_id: 999999 });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'Invalid stream ID', code: 'BAD_REQUEST' });
      const removed = await owner.call('DELETE', '/default_streams', { stream_id: 999999 });
      t.strictSame(removed.body, { result: 'error', msg: 'Invalid stream ID', code: 'BAD_REQUEST' });
    });
    t.test('a private stream cannot be made default', async (t) => {
      const res = await owner.post('/default_streams', { stream_id: backroom });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'Private streams cannot be made default.', code: 'BAD_REQUEST' });
    });
    t.test('stream_id is required', async (t) => {
      const res = await owner.post('/default_streams', {});
      t.strictSame(res.body, {
        result: 'error',
        msg: "Missing 'stream_id' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'stream_id',
      });
    });
  });

  t.test('adding a default stream: event to everyone, register list, new users subscribed', async (t) => {
    const reader = await EventReader.register(alice, { event_types: ['default_streams'] });
    const res = await owner.post('/default_streams', { stream_id: welcome });
    t.strictSame(res.body, { result: 'success', msg: '' });
    const [event, ...rest] = await reader.nextPayloads();
    t.strictSame(rest, []);
    t.equal(event?.['type'], 'default_streams');
    const listed = (event?.['default_streams'] as Stream[]).map((s) => s.name);
    t.strictSame([...listed].sort(), [...before, 'welcome'].sort(), 'the whole new list');
    t.strictSame((await defaultNames(alice)).sort(), [...before, 'welcome'].sort());
    const carol = owner.as(await createMember(owner, 'Carol'));
    const subs = (await carol.post('/register', { event_types: ['subscription'] })).body['subscriptions'] as Stream[];
    t.ok(
      subs.some((s) => s.stream_id === welcome),
      'a new user is subscribed to the default stream',
    );
  });

  t.test('a guest sees no default streams and gets no default_streams events', async (t) => {
    const guestCredentials = await createMember(owner, 'Guest');
    await setRole(owner, guestCredentials.id, 600);
    const guest = owner.as(guestCredentials);
    t.strictSame(await defaultNames(guest), []);
    const reader = await EventReader.register(guest, { event_types: ['default_streams'] });
    t.equal((await owner.post('/default_streams', { stream_id: welcome })).status, 200);
    t.strictSame(await reader.nextPayloads(), []);
  });

  t.test('removing a default stream: event and register list without it; new users not subscribed', async (t) => {
    const reader = await EventReader.register(alice, { event_types: ['default_streams'] });
    t.strictSame((await owner.call('DELETE', '/default_streams', { stream_id: welcome })).body, { result: 'success', msg: '' });
    const events = await reader.nextPayloads();
    t.equal(events.length, 1);
    t.notOk((events[0]?.['default_streams'] as Stream[]).some((s) => s.stream_id === welcome));
    t.strictSame((await defaultNames(alice)).sort(), [...before].sort());
    const dave = owner.as(await createMember(owner, 'Dave'));
    const subs = (await dave.post('/register', { event_types: ['subscription'] })).body['subscriptions'] as Stream[];
    t.notOk(subs.some((s) => s.stream_id === welcome));
  });
});
