import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember, updateRealm } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

// The realm settings these tests change, at their defaults (SPEC PATCH /realm).
const REALM_DEFAULTS = {
  create_public_stream_policy: 1,
  create_private_stream_policy: 1,
  invite_to_stream_policy: 1,
  enable_spectator_access: false,
};

const badRequest = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

t.test('POST /users/me/subscriptions: creation policies and web-public streams', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const aliceCreds = await createMember(api, 'Alice');
  const bobCreds = await createMember(api, 'Bob');
  const alice = api.as(aliceCreds);
  const subscribe = (client: ApiClient, params: Record<string, string | number | boolean | object>) =>
    client.post('/users/me/subscriptions', params);

  t.test('errors', async (t) => {
    t.test('create_public_stream_policy and create_private_stream_policy limit who creates streams', async (t) => {
      await updateRealm(api, { create_public_stream_policy: 2, create_private_stream_policy: 2 });
      t.strictSame((await subscribe(alice, { subscriptions: [{ name: 'pub' }] })).body, badRequest('Insufficient permission'));
      t.strictSame(
        (await subscribe(alice, { subscriptions: [{ name: 'priv' }], invite_only: true })).body,
        badRequest('Insufficient permission'),
      );
      const existing = await subscribe(alice, { subscriptions: [{ name: 'general' }] });
      t.equal(existing.status, 200, 'joining an existing stream is not creating one');
      await updateRealm(api, REALM_DEFAULTS);
    });
    t.test('invite_to_stream_policy limits subscribing others', async (t) => {
      await updateRealm(api, { invite_to_stream_policy: 2 });
      const res = await subscribe(alice, { subscriptions: [{ name: 'general' }], principals: [bobCreds.id] });
      t.equal(res.status, 400);
      t.strictSame(res.body, badRequest('Insufficient permission'));
      await updateRealm(api, REALM_DEFAULTS);
    });
    t.test('web-public streams need spectator access, then the owners-only policy', async (t) => {
      t.strictSame(
        (await subscribe(api, { subscriptions: [{ name: 'web' }], is_web_public: true })).body,
        badRequest('Web-public streams are not enabled.'),
      );
      await updateRealm(api, { enable_spectator_access: true });
      t.strictSame(
        (await subscribe(alice, { subscriptions: [{ name: 'web' }], is_web_public: true })).body,
        badRequest('Insufficient permission'),
      );
      t.strictSame(
        (await subscribe(api, { subscriptions: [{ name: 'web' }], is_web_public: true, invite_only: true })).body,
        badRequest('Invalid parameters'),
      );
      await updateRealm(api, REALM_DEFAULTS);
    });
  });

  t.test('an owner creates a web-public stream when spectators are allowed', async (t) => {
    await updateRealm(api, { enable_spectator_access: true });
    t.teardown(() => updateRealm(api, REALM_DEFAULTS));
    const aliceQueue = await EventReader.register(alice, { event_types: ['stream'] });
    const res = await subscribe(api, { subscriptions: [{ name: 'window' }], is_web_public: true });
    t.strictSame(res.body, { result: 'success', msg: '', subscribed: { [server.owner.email]: ['window'] }, already_subscribed: {} });
    const [created] = await aliceQueue.nextPayloads();
    hasFields(t, created, {
      type: 'stream',
      op: 'create',
      streams: [{ name: 'window', is_web_public: true, invite_only: false, history_public_to_subscribers: true }],
    });
    const listed = (await alice.get('/streams', { include_web_public: true, include_public: false, include_subscribed: false })).body[
      'streams'
    ] as { name: string }[];
    t.strictSame(
      listed.map((s) => s.name),
      ['window'],
    );
  });

  t.test('members create streams under the default policies', async (t) => {
    const res = await subscribe(alice, { subscriptions: [{ name: 'alices' }], invite_only: true, history_public_to_subscribers: true });
    t.strictSame(res.body['subscribed'], { [aliceCreds.email]: ['alices'] });
    const mine = (await alice.get('/streams', { include_public: false })).body['streams'] as Record<string, unknown>[];
    hasFields(
      t,
      mine.find((s) => s['name'] === 'alices'),
      { invite_only: true, history_public_to_subscribers: true },
    );
  });

  // As the public API does (send_messages_for_new_subscribers): in the new stream, topic
  // "stream events", the policy, the creator silently mentioned and the description quoted; the
  // message is marked read for the creator only.
  t.test('the notification bot opens each stream it creates with one new-stream notice, read for its creator only', async (t) => {
    const aliceName = String((await alice.get('/users/me')).body['full_name']);
    const bob = api.as(bobCreds);
    const principals = [aliceCreds.id, bobCreds.id];
    const created = await subscribe(alice, { subscriptions: [{ name: 'plans', description: 'Plans & **decisions**' }], principals });
    t.equal(created.status, 200, created.text);
    const hidden = await subscribe(alice, { subscriptions: [{ name: 'hideout' }], principals, invite_only: true });
    t.equal(hidden.status, 200, hidden.text);
    const plans = await streamIdOf(api, 'plans');
    const hideout = await streamIdOf(api, 'hideout');
    const streamMessages = async (client: ApiClient, streamId: number) =>
      (
        await client.get('/messages', {
          anchor: 'oldest',
          num_before: 0,
          num_after: 100,
          narrow: [{ operator: 'stream', operand: streamId }],
        })
      ).body['messages'] as Record<string, unknown>[];
    const mention = `<span class="user-mention silent" data-user-id="${aliceCreds.id}">${aliceName}</span>`;
    const expected = [
      {
        streamId: plans,
        name: 'plans',
        content:
          `<p><strong>Public</strong> stream created by ${mention}. <strong>Description:</strong></p>\n` +
          '<blockquote>\n<p>Plans &amp; <strong>decisions</strong></p>\n</blockquote>',
      },
      {
        streamId: hideout,
        name: 'hideout',
        content:
          `<p><strong>Private, protected history</strong> stream created by ${mention}. <strong>Description:</strong></p>\n` +
          '<blockquote>\n<p><em>No description.</em></p>\n</blockquote>',
      },
    ];
    const noticeIds: number[] = [];
    for (const { streamId, name, content } of expected) {
      const [asCreator, ...restForCreator] = await streamMessages(alice, streamId);
      t.strictSame(restForCreator, [], `${name} holds the notice only`);
      hasFields(t, asCreator, {
        sender_full_name: 'Notification Bot',
        type: 'stream',
        stream_id: streamId,
        display_recipient: name,
        subject: 'stream events',
        content,
        flags: ['read'],
      });
      const asSubscriber = await streamMessages(bob, streamId);
      t.strictSame(
        asSubscriber.map((m) => [m['id'], m['flags']]),
        [[asCreator?.['id'], []]],
        `unread for the other subscriber of ${name}`,
      );
      noticeIds.push(asCreator?.['id'] as number);
    }

    const unreadIn = async (client: ApiClient) => {
      const registered = await client.post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
      const unread = registered.body['unread_msgs'] as { streams: { stream_id: number }[] };
      return unread.streams.filter((entry) => entry.stream_id === plans || entry.stream_id === hideout);
    };
    t.strictSame(await unreadIn(alice), [], "the notices are not in the creator's unread_msgs");
    t.strictSame(await unreadIn(bob), [
      { stream_id: plans, topic: 'stream events', unread_message_ids: [noticeIds[0]] },
      { stream_id: hideout, topic: 'stream events', unread_message_ids: [noticeIds[1]] },
    ]);

    const joined = await subscribe(api, { subscriptions: [{ name: 'plans' }, { name: 'hideout' }] });
    t.strictSame(joined.body['subscribed'], { [server.owner.email]: ['plans', 'hideout'] });
    for (const [index, { streamId, name }] of expected.entries()) {
      t.strictSame(
        (await streamMessages(alice, streamId)).map((m) => m['id']),
        [noticeIds[index]],
        `subscribing to ${name} once it exists posts no second notice`,
      );
    }
  });
});

t.test('WEB_PUBLIC_STREAMS_ENABLED=false turns web-public streams off for the whole server', async (t) => {
  const server = await startServer({ env: { WEB_PUBLIC_STREAMS_ENABLED: 'false' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  await updateRealm(api, { enable_spectator_access: true });
  const res = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'web' }], is_web_public: true });
  t.equal(res.status, 400);
  t.strictSame(res.body, badRequest('Web-public streams are not enabled.'));
  const created = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'web' }] });
  t.equal(created.status, 200);
  const patched = await api.call('PATCH', `/streams/${await streamIdOf(api, 'web')}`, { is_web_public: true });
  t.strictSame(patched.body, badRequest('Web-public streams are not enabled.'));
});
