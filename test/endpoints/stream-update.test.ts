import t from 'tap';
import { EventReader } from '../helpers/events';
import { responseViolations } from '../helpers/openapi';
import { createMember, fetchMessage, updateRealm } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { sendToStream, streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

t.test('PATCH /streams/{stream_id}', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const me = (await api.get('/users/me')).body;
  const ownerId = Number(me['user_id']);
  const ownerName = String(me['full_name']);
  const aliceCreds = await createMember(api, 'Alice');
  const bobCreds = await createMember(api, 'Bob');
  const alice = api.as(aliceCreds);
  const bob = api.as(bobCreds);
  await api.post('/users/me/subscriptions', {
    subscriptions: [{ name: 'kitchen', description: 'Food' }],
    principals: [aliceCreds.id, ownerId],
  });
  const kitchenId = await streamIdOf(api, 'kitchen');
  const patch = (client: ApiClient, id: number, params: Record<string, string | number | boolean | object>) =>
    client.call('PATCH', `/streams/${id}`, params);
  const latest = async (client: ApiClient): Promise<Record<string, unknown>> =>
    fetchMessage(client, (await client.get('/users/me')).body['max_message_id']);
  const stream = async (id: number): Promise<Record<string, unknown>> =>
    ((await api.get('/streams', { include_all_active: true })).body['streams'] as Record<string, unknown>[]).find(
      (s) => s['stream_id'] === id,
    ) ?? {};

  t.test('errors', async (t) => {
    const badRequest = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });
    t.test('a member may not update a stream', async (t) => {
      const res = await patch(alice, kitchenId, { description: 'x' });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    });
    t.test('an unknown stream ID is refused', async (t) => {
      t.strictSame((await patch(api, 4242, { description: 'x' })).body, badRequest('Invalid stream ID'));
    });
    t.test('names and descriptions are bounded and checked', async (t) => {
      t.strictSame(
        (await patch(api, kitchenId, { new_name: 'n'.repeat(61) })).body,
        badRequest('Stream name too long (limit: 60 characters).'),
      );
      t.strictSame((await patch(api, kitchenId, { new_name: ' ' })).body, badRequest("Stream name can't be empty!"));
      t.strictSame((await patch(api, kitchenId, { new_name: 'kitchen' })).body, badRequest('Stream already has that name!'));
      t.strictSame((await patch(api, kitchenId, { new_name: 'GENERAL' })).body, badRequest("Stream name 'GENERAL' is already taken."));
      t.strictSame(
        (await patch(api, kitchenId, { description: 'd'.repeat(1025) })).body,
        badRequest('description is too long (limit: 1024 characters)'),
      );
    });
    t.test('invalid permission combinations are refused', async (t) => {
      t.strictSame((await patch(api, kitchenId, { history_public_to_subscribers: false })).body, badRequest('Invalid parameters'));
      t.strictSame(
        (await patch(api, kitchenId, { is_private: false, history_public_to_subscribers: false })).body,
        badRequest('Invalid parameters'),
      );
      t.strictSame((await patch(api, kitchenId, { is_web_public: true })).body, badRequest('Web-public streams are not enabled.'));
      await updateRealm(api, { enable_spectator_access: true });
      t.strictSame((await patch(api, kitchenId, { is_web_public: true, is_private: true })).body, badRequest('Invalid parameters'));
      await updateRealm(api, { enable_spectator_access: false });
      t.strictSame(
        (await patch(api, kitchenId, { stream_post_policy: 2, is_announcement_only: false })).body,
        badRequest('Invalid parameters'),
      );
    });
    t.test('a default stream cannot be made private', async (t) => {
      const generalId = await streamIdOf(api, 'general');
      const made = await api.post('/default_streams', { stream_id: generalId });
      t.equal(made.status, 200, made.text);
      t.teardown(() => api.call('DELETE', '/default_streams', { stream_id: generalId }));
      t.strictSame((await patch(api, generalId, { is_private: true })).body, badRequest('Default streams cannot be made private.'));
    });
    t.test('stream_post_policy must be 1 to 4, the removal group an allowed system group', async (t) => {
      const policy = await patch(api, kitchenId, { stream_post_policy: 7 });
      t.equal(policy.status, 400);
      t.equal(policy.body['code'], 'REQUEST_VARIABLE_INVALID');
      t.strictSame(
        (await patch(api, kitchenId, { can_remove_subscribers_group_id: 4242 })).body,
        badRequest('Invalid user group ID: 4242'),
      );
    });
  });

  t.test('the description: an update event with the rendering, and a notice in the stream', async (t) => {
    const aliceQueue = await EventReader.register(alice, { event_types: ['stream'] });
    const res = await patch(api, kitchenId, { description: 'Food **and** drink' });
    t.strictSame(res.body, { result: 'success', msg: '' });
    t.strictSame(responseViolations('patch', '/streams/{stream_id}', res.body), [], 'the body conforms to the reference OpenAPI');
    t.strictSame(await aliceQueue.nextPayloads(), [
      {
        type: 'stream',
        op: 'update',
        stream_id: kitchenId,
        name: 'kitchen',
        property: 'description',
        value: 'Food **and** drink',
        rendered_description: '<p>Food <strong>and</strong> drink</p>',
      },
    ]);
    const notice = await latest(alice);
    t.equal(notice['subject'], 'stream events');
    t.equal(notice['display_recipient'], 'kitchen');
    t.match(notice['content'], `changed the description for this stream.`);
    t.match(notice['content'], '<p>Food</p>');
    t.match(notice['content'], '<p>Food <strong>and</strong> drink</p>');
  });

  t.test('post policy, retention and removal group: one update event each', async (t) => {
    const aliceQueue = await EventReader.register(alice, { event_types: ['stream'] });
    const groups = (await api.post('/register', { fetch_event_types: ['realm_user_groups'] })).body['realm_user_groups'] as {
      id: number;
      name: string;
    }[];
    const moderators = groups.find((g) => g.name === '@role:moderators');
    if (!moderators) throw new Error('no moderators group');
    const res = await patch(api, kitchenId, {
      stream_post_policy: 4,
      message_retention_days: 'unlimited',
      can_remove_subscribers_group_id: moderators.id,
    });
    t.equal(res.status, 200);
    const update = (property: string, value: number | null) => ({
      type: 'stream',
      op: 'update',
      stream_id: kitchenId,
      name: 'kitchen',
      property,
      value,
    });
    t.strictSame(await aliceQueue.nextPayloads(), [
      update('stream_post_policy', 4),
      update('message_retention_days', -1),
      update('can_remove_subscribers_group_id', moderators.id),
    ]);
    hasFields(t, await stream(kitchenId), {
      stream_post_policy: 4,
      message_retention_days: -1,
      can_remove_subscribers_group_id: moderators.id,
    });
    await patch(api, kitchenId, { is_announcement_only: true, message_retention_days: 'realm_default' });
    t.strictSame(await aliceQueue.nextPayloads(), [update('stream_post_policy', 2), update('message_retention_days', null)]);
    hasFields(t, await stream(kitchenId), { stream_post_policy: 2, is_announcement_only: true, message_retention_days: null });
    await patch(api, kitchenId, { stream_post_policy: 1 });
    t.strictSame(await aliceQueue.nextPayloads(), [update('stream_post_policy', 1)]);
  });

  t.test('a rename keeps messages and narrows by ID; the event carries the old name; the bot posts it', async (t) => {
    const messageId = await sendToStream(alice, 'kitchen', 'menu', 'soup');
    const aliceQueue = await EventReader.register(alice, { event_types: ['stream'] });
    const res = await patch(api, kitchenId, { new_name: 'galley' });
    t.equal(res.status, 200);
    t.strictSame(await aliceQueue.nextPayloads(), [
      { type: 'stream', op: 'update', stream_id: kitchenId, name: 'kitchen', property: 'name', value: 'galley' },
    ]);
    t.equal((await fetchMessage(alice, messageId))['display_recipient'], 'galley');
    const narrowed = await alice.get('/messages', {
      anchor: messageId,
      num_before: 0,
      num_after: 0,
      narrow: [{ operator: 'stream', operand: kitchenId }],
    });
    t.strictSame(
      (narrowed.body['messages'] as { id: number }[]).map((m) => m.id),
      [messageId],
    );
    const notice = await latest(alice);
    t.equal(notice['subject'], 'stream events');
    t.equal(notice['display_recipient'], 'galley');
    t.match(notice['content'], `${ownerName}</span> renamed stream <strong>kitchen</strong> to <strong>galley</strong>.`);
  });

  t.test('making a stream private: delete to those who lose sight, invite_only update to the rest', async (t) => {
    const aliceQueue = await EventReader.register(alice, { event_types: ['stream'] });
    const bobQueue = await EventReader.register(bob, { event_types: ['stream'] });
    const res = await patch(api, kitchenId, { is_private: true });
    t.equal(res.status, 200);
    t.strictSame(await aliceQueue.nextPayloads(), [
      {
        type: 'stream',
        op: 'update',
        stream_id: kitchenId,
        name: 'galley',
        property: 'invite_only',
        value: true,
        history_public_to_subscribers: false,
        is_web_public: false,
      },
    ]);
    const [lost] = await bobQueue.nextPayloads();
    hasFields(t, lost, { type: 'stream', op: 'delete', streams: [{ stream_id: kitchenId, name: 'galley', invite_only: false }] });
    const bobSees = (await bob.get('/streams')).body['streams'] as { stream_id: number }[];
    t.notOk(bobSees.some((s) => s.stream_id === kitchenId));
    hasFields(t, await stream(kitchenId), { invite_only: true, history_public_to_subscribers: false });
    const permissionNotice = await latest(alice);
    hasFields(t, permissionNotice, { sender_full_name: 'Notification Bot', subject: 'stream events', display_recipient: 'galley' });
    t.equal(
      permissionNotice['content'],
      `<p><span class="user-mention silent" data-user-id="${ownerId}">${ownerName}</span> changed the <a href="/help/stream-permissions">access permissions</a> for this stream from <strong>Public</strong> to <strong>Private, protected history</strong>.</p>`,
    );

    const shared = await patch(api, kitchenId, { history_public_to_subscribers: true });
    t.equal(shared.status, 200);
    hasFields(t, await aliceQueue.nextPayloads(), [{ property: 'invite_only', value: true, history_public_to_subscribers: true }]);
    t.strictSame(await bobQueue.nextPayloads(), []);

    const reopened = await patch(api, kitchenId, { is_private: false });
    t.equal(reopened.status, 200);
    const [gained] = await bobQueue.nextPayloads();
    hasFields(t, gained, {
      type: 'stream',
      op: 'create',
      streams: [{ stream_id: kitchenId, invite_only: false, history_public_to_subscribers: true }],
    });
    hasFields(t, await aliceQueue.nextPayloads(), [{ property: 'invite_only', value: false, history_public_to_subscribers: true }]);
  });
});
