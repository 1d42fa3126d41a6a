import t from 'tap';
import { EventReader, received } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

t.test('stream, subscription and user events', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const ownerId = Number((await api.get('/users/me')).body['user_id']);
  const aliceCreds = await createMember(api, 'Alice');
  const bobCreds = await createMember(api, 'Bob');
  const alice = api.as(aliceCreds);
  const bob = api.as(bobCreds);

  t.test(
    'creating a public stream: create to everyone, add with the whole subscription to the subscriber, peer_add to the others',
    async (t) => {
      const aliceQueue = await EventReader.register(alice, { event_types: ['stream', 'subscription'] });
      const aliceNullsQueue = await EventReader.register(alice, {
        event_types: ['subscription'],
        client_capabilities: { notification_settings_null: true },
      });
      const bobQueue = await EventReader.register(bob, { event_types: ['stream', 'subscription'] });
      const res = await alice.post('/users/me/subscriptions', { subscriptions: [{ name: 'garden', description: 'Plants *only*' }] });
      t.equal(res.status, 200);
      const streamId = await streamIdOf(api, 'garden');
      const aliceEvents = await aliceQueue.nextPayloads();
      t.strictSame(
        aliceEvents.map((e) => `${String(e['type'])}/${String(e['op'])}`),
        ['stream/create', 'subscription/add'],
      );
      const [created, added] = aliceEvents;
      const stream = (created?.['streams'] as Record<string, unknown>[])[0] as Record<string, unknown>;
      hasFields(t, stream, {
        stream_id: streamId,
        name: 'garden',
        description: 'Plants *only*',
        rendered_description: '<p>Plants <em>only</em></p>',
        invite_only: false,
        is_web_public: false,
        history_public_to_subscribers: true,
        first_message_id: null,
        stream_post_policy: 1,
        is_announcement_only: false,
        message_retention_days: null,
      });
      const subscription = (added?.['subscriptions'] as Record<string, unknown>[])[0] as Record<string, unknown>;
      hasFields(t, subscription, {
        stream_id: streamId,
        name: 'garden',
        is_muted: false,
        in_home_view: true,
        pin_to_top: false,
        // Without notification_settings_null, "inherit" arrives as the user's own settings.
        desktop_notifications: false,
        audible_notifications: false,
        push_notifications: false,
        email_notifications: false,
        wildcard_mentions_notify: true,
        stream_weekly_traffic: null,
        subscribers: [aliceCreds.id],
      });
      t.type(subscription['color'], 'string');
      const [withNulls] = await aliceNullsQueue.nextPayloads();
      hasFields(t, (withNulls?.['subscriptions'] as Record<string, unknown>[])[0], {
        stream_id: streamId,
        desktop_notifications: null,
        audible_notifications: null,
        push_notifications: null,
        email_notifications: null,
        wildcard_mentions_notify: null,
      });
      t.notOk('inherited_settings' in (withNulls ?? {}), 'the internal key stays on the server');
      const bobEvents = await bobQueue.nextPayloads();
      t.strictSame(
        bobEvents.map((e) => `${String(e['type'])}/${String(e['op'])}`),
        ['stream/create', 'subscription/peer_add'],
      );
      t.strictSame(bobEvents[1], { type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: [aliceCreds.id] });
    },
  );

  t.test('a private stream is announced only to its subscribers and the administrators', async (t) => {
    const aliceQueue = await EventReader.register(alice, { event_types: ['stream', 'subscription'] });
    const bobQueue = await EventReader.register(bob, { event_types: ['stream', 'subscription'] });
    const ownerQueue = await EventReader.register(api, { event_types: ['stream', 'subscription'] });
    await alice.post('/users/me/subscriptions', { subscriptions: [{ name: 'hideout' }], invite_only: true });
    const streamId = await streamIdOf(api, 'hideout');
    t.strictSame(
      (await aliceQueue.nextPayloads()).map((e) => `${String(e['type'])}/${String(e['op'])}`),
      ['stream/create', 'subscription/add'],
    );
    t.strictSame(await bobQueue.nextPayloads(), [], 'a member without access learns nothing');
    const ownerEvents = await ownerQueue.nextPayloads();
    t.strictSame(
      ownerEvents.map((e) => `${String(e['type'])}/${String(e['op'])}`),
      ['stream/create', 'subscription/peer_add'],
    );
    t.strictSame(ownerEvents[1], { type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: [aliceCreds.id] });
  });

  t.test('subscribing someone else: add to them, peer_add to the rest, a notice from the bot', async (t) => {
    const bobQueue = await EventReader.register(bob, { event_types: ['subscription', 'message'], apply_markdown: false });
    const aliceQueue = await EventReader.register(alice, { event_types: ['subscription'] });
    await alice.post('/users/me/subscriptions', { subscriptions: [{ name: 'garden' }], principals: [bobCreds.id] });
    const streamId = await streamIdOf(api, 'garden');
    const bobEvents = await bobQueue.nextPayloads();
    t.strictSame(
      bobEvents.map((e) => `${String(e['type'])}/${String(e['op'])}`),
      ['subscription/add', 'message/undefined'],
    );
    hasFields(t, (bobEvents[0]?.['subscriptions'] as Record<string, unknown>[])[0], {
      stream_id: streamId,
      subscribers: [aliceCreds.id, bobCreds.id],
    });
    const notice = bobEvents[1]?.['message'] as Record<string, unknown>;
    t.equal(notice['type'], 'private');
    t.match(notice['content'], /subscribed you to the stream #\*\*garden\*\*/);
    t.strictSame(bobEvents[1]?.['flags'], []);
    t.strictSame(await aliceQueue.nextPayloads(), [
      { type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: [bobCreds.id] },
    ]);
  });

  t.test('a new user is announced with the whole person', async (t) => {
    const aliceQueue = await EventReader.register(alice, { event_types: ['realm_user', 'user_group'] });
    const carol = await createMember(api, 'Carol');
    const [added, joined] = await aliceQueue.nextPayloads();
    hasFields(
      t,
      joined,
      { type: 'user_group', op: 'add_members', group_id: Number, user_ids: [carol.id] },
      'then the role group gains them',
    );
    const person = added?.['person'] as Record<string, unknown>;
    hasFields(t, added, { type: 'realm_user', op: 'add' });
    hasFields(t, person, {
      user_id: carol.id,
      email: carol.email,
      delivery_email: carol.email,
      full_name: /^Carol \d+$/,
      role: 400,
      is_admin: false,
      is_owner: false,
      is_guest: false,
      is_bot: false,
      is_active: true,
      is_billing_admin: false,
      profile_data: {},
      avatar_version: 1,
    });
    t.notOk('bot_type' in person, 'bot fields only for bots');
    t.ok(ownerId > 0);
  });

  t.test('typing: direct typing names every participant, stream typing the stream and topic', async (t) => {
    const general = await streamIdOf(api, 'general');
    const bobQueue = await EventReader.register(bob, {
      event_types: ['typing'],
      client_capabilities: { stream_typing_notifications: true },
    });
    t.equal((await alice.post('/typing', { op: 'start', to: [bobCreds.id] })).status, 200);
    const [direct] = await bobQueue.nextPayloads();
    hasFields(t, direct, {
      type: 'typing',
      op: 'start',
      message_type: 'private',
      sender: { user_id: aliceCreds.id, email: aliceCreds.email },
    });
    const recipients = (direct?.['recipients'] as { user_id: number }[]).map((r) => r.user_id).sort((a, b) => a - b);
    t.strictSame(
      recipients,
      [aliceCreds.id, bobCreds.id].sort((a, b) => a - b),
    );
    t.equal((await alice.post('/typing', { type: 'stream', op: 'stop', to: [general], topic: 'chat' })).status, 200);
    t.strictSame(await bobQueue.nextPayloads(), [
      {
        type: 'typing',
        op: 'stop',
        message_type: 'stream',
        sender: { user_id: aliceCreds.id, email: aliceCreds.email },
        stream_id: general,
        topic: 'chat',
      },
    ]);
  });

  t.test('every event received validated against the declared union', async (t) => {
    t.ok(received.count > 0);
    t.strictSame(received.invalid, []);
  });
});
