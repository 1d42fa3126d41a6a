import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember, updateRealm } from '../helpers/fixtures';
import { responseViolations } from '../helpers/openapi';
import { RealmFile, sendToStream } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { STREAM_EVENTS_TOPIC, createStream } from '../helpers/stream-notices';
import { hasFields } from '../helpers/exact';

const INVALID_STREAM_ID = { result: 'error', msg: 'Invalid stream ID', code: 'BAD_REQUEST' };

t.test('the stream reads', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const realmFile = new RealmFile(server);
  t.teardown(() => realmFile.close());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');
  const asAlice = api.as(alice);
  const asBob = api.as(bob);
  const ownerId = Number((await api.get('/users/me')).body['user_id']);

  // Each stream starts with the notification bot's new-stream notice.
  const { streamId: publicId, noticeId: publicNotice } = await createStream(
    asAlice,
    'reads-public',
    { principals: [alice.id, bob.id] },
    'Read **me**',
  );
  const { streamId: privateId, noticeId: privateNotice } = await createStream(asAlice, 'reads-private', { invite_only: true });
  await sendToStream(asAlice, 'reads-public', 'lunch', 'pizza');
  const second = await sendToStream(asAlice, 'reads-public', 'dinner', 'soup');
  const third = await sendToStream(asBob, 'reads-public', 'Lunch', 'more pizza');

  /** The stream object as SPEC §Stream lists it, with the values the realm file stored. */
  const publicStream = () => ({
    stream_id: publicId,
    name: 'reads-public',
    description: 'Read **me**',
    rendered_description: '<p>Read <strong>me</strong></p>',
    date_created: realmFile.value('SELECT date_created FROM streams WHERE id = ?', publicId),
    invite_only: false,
    is_web_public: false,
    stream_post_policy: 1,
    message_retention_days: null,
    history_public_to_subscribers: true,
    first_message_id: publicNotice,
    is_announcement_only: false,
    can_remove_subscribers_group_id: realmFile.value('SELECT can_remove_subscribers_group_id FROM streams WHERE id = ?', publicId),
  });

  t.test('errors', async (t) => {
    t.test('an unknown stream ID is an invalid stream ID everywhere', async (t) => {
      for (const path of ['/streams/999999', '/streams/999999/members', '/users/me/999999/topics', '/users/me/subscriptions/999999']) {
        const res = await asAlice.get(path);
        t.equal(res.status, 400, path);
        t.strictSame(res.body, INVALID_STREAM_ID, path);
      }
    });
    t.test('a private stream the user is not on is answered as if it did not exist', async (t) => {
      for (const path of [`/streams/${privateId}`, `/streams/${privateId}/members`, `/users/me/${privateId}/topics`]) {
        const res = await asBob.get(path);
        t.equal(res.status, 400, path);
        t.strictSame(res.body, INVALID_STREAM_ID, path);
      }
      const byName = await asBob.get('/get_stream_id', { stream: 'reads-private' });
      t.strictSame(byName.body, { result: 'error', msg: "Invalid stream name 'reads-private'", code: 'BAD_REQUEST' });
    });
    t.test('an unknown stream name is an invalid stream name', async (t) => {
      const res = await asAlice.get('/get_stream_id', { stream: 'nonexistent' });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: "Invalid stream name 'nonexistent'", code: 'BAD_REQUEST' });
    });
    t.test('the stream name is required', async (t) => {
      const res = await asAlice.get('/get_stream_id');
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: "Missing 'stream' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'stream' });
    });
    t.test('the subscription status of an unknown user is refused', async (t) => {
      const res = await asAlice.get(`/users/999999/subscriptions/${publicId}`);
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
    });
    t.test('include_all_active is for administrators only', async (t) => {
      const res = await asAlice.get('/streams', { include_all_active: true });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'User not authorized for this query', code: 'BAD_REQUEST' });
    });
  });

  t.test('GET /streams/{stream_id} returns every Stream field', async (t) => {
    const res = await asBob.get(`/streams/${publicId}`);
    t.strictSame(res.body, { result: 'success', msg: '', stream: publicStream() });
    t.strictSame(responseViolations('get', '/streams/{stream_id}', res.body), []);
  });

  t.test('GET /get_stream_id finds a stream by name, whatever its case', async (t) => {
    const res = await asBob.get('/get_stream_id', { stream: 'READS-public' });
    t.strictSame(res.body, { result: 'success', msg: '', stream_id: publicId });
    t.strictSame(responseViolations('get', '/get_stream_id', res.body), []);
  });

  t.test('GET /streams/{stream_id}/members lists the active subscribers', async (t) => {
    const res = await asBob.get(`/streams/${publicId}/members`);
    t.strictSame(res.body, { result: 'success', msg: '', subscribers: [alice.id, bob.id] });
    t.strictSame(responseViolations('get', '/streams/{stream_id}/members', res.body), []);
    const owner = await api.get(`/streams/${privateId}/members`);
    t.strictSame(owner.body, { result: 'success', msg: '', subscribers: [alice.id] }, 'an administrator sees a private stream');
  });

  t.test('GET /users/me/{stream_id}/topics lists topics newest first, in their latest spelling', async (t) => {
    const res = await asBob.get(`/users/me/${publicId}/topics`);
    t.strictSame(res.body, {
      result: 'success',
      msg: '',
      topics: [
        { name: 'Lunch', max_id: third },
        { name: 'dinner', max_id: second },
        { name: STREAM_EVENTS_TOPIC, max_id: publicNotice },
      ],
    });
    t.strictSame(responseViolations('get', '/users/me/{stream_id}/topics', res.body), []);
    const onlyNotice = await asAlice.get(`/users/me/${privateId}/topics`);
    t.strictSame(
      onlyNotice.body,
      { result: 'success', msg: '', topics: [{ name: STREAM_EVENTS_TOPIC, max_id: privateNotice }] },
      'a new stream has its notice only',
    );
  });

  t.test('GET /users/{user_id}/subscriptions/{stream_id} says whether the user is subscribed', async (t) => {
    const mine = await asBob.get(`/users/me/subscriptions/${publicId}`);
    t.strictSame(mine.body, { result: 'success', msg: '', is_subscribed: true });
    t.strictSame(responseViolations('get', '/users/{user_id}/subscriptions/{stream_id}', mine.body), []);
    const owners = await asBob.get(`/users/${ownerId}/subscriptions/${publicId}`);
    t.strictSame(owners.body, { result: 'success', msg: '', is_subscribed: false });
  });

  t.test('GET /users/me/subscriptions lists the subscriptions as register does', async (t) => {
    const res = await asAlice.get('/users/me/subscriptions');
    const subscriptions = res.body['subscriptions'] as Record<string, unknown>[];
    t.strictSame(
      subscriptions.map((s) => s['name']),
      ['general', 'reads-private', 'reads-public'],
      'new users are on the default stream',
    );
    const pub = subscriptions.find((s) => s['stream_id'] === publicId);
    hasFields(t, pub, {
      ...publicStream(),
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: null,
      email_address: '',
    });
    t.equal(pub?.['subscribers'], undefined, 'no subscribers unless asked');
    t.strictSame(responseViolations('get', '/users/me/subscriptions', res.body), []);
    const registered = await asAlice.post('/register', {
      fetch_event_types: ['subscription'],
      client_capabilities: { notification_settings_null: true },
    });
    t.strictSame(subscriptions, registered.body['subscriptions'], 'the same records as register');
    const withSubscribers = await asAlice.get('/users/me/subscriptions', { include_subscribers: true });
    const subscribers = (withSubscribers.body['subscriptions'] as Record<string, unknown>[]).map((s) => s['subscribers']);
    t.strictSame(subscribers, [[ownerId, alice.id, bob.id], [alice.id], [alice.id, bob.id]]);
    t.strictSame(responseViolations('get', '/users/me/subscriptions', withSubscribers.body), []);
  });

  t.test('GET /streams: each include flag with its default', async (t) => {
    const names = async (client: ApiClient, params: Record<string, boolean> = {}) =>
      ((await client.get('/streams', params)).body['streams'] as { name: string }[]).map((s) => s.name);
    // A web-public stream Bob is not subscribed to; web-public streams are public too (SPEC), so it
    // shows apart from the public ones only with include_public off.
    await updateRealm(api, { enable_spectator_access: true });
    t.teardown(() => updateRealm(api, { enable_spectator_access: false }));
    const web = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'reads-web' }], is_web_public: true });
    t.equal(web.status, 200, web.text);
    const general = (await names(api, { include_all_active: true })).filter((n) => !n.startsWith('reads-'));
    t.strictSame(await names(asBob), [...general, 'reads-public', 'reads-web'].sort(), 'public and subscribed by default');
    t.strictSame(await names(asBob, { include_public: false, include_web_public: true }), ['general', 'reads-public', 'reads-web']);
    t.strictSame(await names(asBob, { include_public: false }), ['general', 'reads-public'], 'subscribed only');
    t.strictSame(await names(asBob, { include_public: false, include_subscribed: false }), []);
    const withDefault = await asBob.get('/streams', { include_default: true });
    const streams = withDefault.body['streams'] as Record<string, unknown>[];
    t.strictSame(
      streams.find((s) => s['stream_id'] === publicId),
      { ...publicStream(), is_default: false },
    );
    t.strictSame(responseViolations('get', '/streams', withDefault.body), []);
    t.strictSame(
      await names(api, { include_all_active: true, include_public: false }),
      [...general, 'reads-private', 'reads-public', 'reads-web'].sort(),
    );
  });
});
