import t from 'tap';
import { EventReader, received } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { sendToStream, streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

type Payload = Record<string, unknown>;

/** The event without its server-chosen timestamp, which is checked separately. */
function withoutTimestamp(event: Payload | undefined): Payload {
  const { edit_timestamp: _timestamp, ...rest } = event ?? {};
  return rest;
}

t.test('events of changes to messages', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const ownerId = Number((await api.get('/users/me')).body['user_id']);
  const aliceCreds = await createMember(api, 'Alice');
  const bobCreds = await createMember(api, 'Bob');
  const alice = api.as(aliceCreds);
  const bob = api.as(bobCreds);
  const general = await streamIdOf(api, 'general');
  await api.post('/users/me/subscriptions', {
    subscriptions: [{ name: 'vault' }],
    invite_only: true,
    principals: [ownerId, aliceCreds.id],
  });
  const vault = await streamIdOf(api, 'vault');
  const bulk = { client_capabilities: { bulk_message_deletion: true } };

  t.test('a content edit: update_message with every content key to each subscriber, with their flags', async (t) => {
    const id = await sendToStream(alice, 'general', 'edits', 'before');
    const aliceQueue = await EventReader.register(alice);
    const bobQueue = await EventReader.register(bob);
    const res = await alice.call('PATCH', `/messages/${id}`, { content: 'after **now**' });
    t.equal(res.status, 200);
    const [bobEvent] = await bobQueue.nextOfType('update_message');
    t.type(bobEvent?.['edit_timestamp'], 'number');
    t.strictSame(withoutTimestamp(bobEvent), {
      type: 'update_message',
      user_id: aliceCreds.id,
      message_id: id,
      message_ids: [id],
      flags: [],
      rendering_only: false,
      stream_id: general,
      stream_name: 'general',
      orig_content: 'before',
      orig_rendered_content: '<p>before</p>',
      prev_rendered_content_version: 1,
      content: 'after **now**',
      rendered_content: '<p>after <strong>now</strong></p>',
      is_me_message: false,
    });
    t.equal((await aliceQueue.nextOfType('update_message')).length, 1, 'the editor gets it too');
  });

  t.test('a topic move carries the topics, links and propagate_mode', async (t) => {
    const first = await sendToStream(alice, 'general', 'old place', 'one');
    const second = await sendToStream(alice, 'general', 'old place', 'two');
    const bobQueue = await EventReader.register(bob);
    const res = await alice.call('PATCH', `/messages/${first}`, {
      topic: 'new place',
      propagate_mode: 'change_all',
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: false,
    });
    t.equal(res.status, 200);
    const [event] = await bobQueue.nextOfType('update_message');
    t.strictSame(withoutTimestamp(event), {
      type: 'update_message',
      user_id: aliceCreds.id,
      message_id: first,
      message_ids: [first, second],
      flags: [],
      rendering_only: false,
      stream_id: general,
      stream_name: 'general',
      orig_subject: 'old place',
      subject: 'new place',
      topic_links: [],
      propagate_mode: 'change_all',
    });
  });

  t.test('resolving a topic: update_message, then the notification bot’s message to the subscribers', async (t) => {
    const id = await sendToStream(alice, 'general', 'bug', 'broken');
    const bobQueue = await EventReader.register(bob, { event_types: ['message', 'update_message'], apply_markdown: false });
    const res = await alice.call('PATCH', `/messages/${id}`, { topic: '✔ bug', propagate_mode: 'change_all' });
    t.equal(res.status, 200, res.text);
    const events = await bobQueue.nextPayloads();
    t.strictSame(
      events.map((e) => e['type']),
      ['update_message', 'message'],
    );
    hasFields(t, events[0], { subject: '✔ bug', orig_subject: 'bug', propagate_mode: 'change_all', message_ids: [id] });
    const notice = events[1]?.['message'] as Record<string, unknown>;
    hasFields(t, notice, {
      type: 'stream',
      stream_id: general,
      subject: '✔ bug',
      content_type: 'text/x-markdown',
      sender_full_name: 'Notification Bot',
    });
    t.match(notice['content'], /has marked this topic as resolved\.$/);
    t.strictSame(events[1]?.['flags'], []);
  });

  t.test('a move into a private stream: delete_message to users losing access, update_message to the others', async (t) => {
    const id = await sendToStream(alice, 'general', 'moving', 'going private');
    const aliceQueue = await EventReader.register(alice);
    const bobQueue = await EventReader.register(bob, bulk);
    const res = await api.call('PATCH', `/messages/${id}`, {
      stream_id: vault,
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: false,
    });
    t.equal(res.status, 200, res.text);
    t.strictSame(await bobQueue.nextPayloads(), [
      { type: 'delete_message', message_type: 'stream', message_ids: [id], stream_id: general, topic: 'moving' },
    ]);
    const [moved] = await aliceQueue.nextOfType('update_message');
    t.strictSame(withoutTimestamp(moved), {
      type: 'update_message',
      user_id: ownerId,
      message_id: id,
      message_ids: [id],
      flags: [],
      rendering_only: false,
      stream_id: general,
      stream_name: 'general',
      new_stream_id: vault,
      orig_subject: 'moving',
      propagate_mode: 'change_one',
    });
  });

  t.test('an edit in a private stream without shared history skips subscribers who never received the message', async (t) => {
    await api.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'closet' }],
      invite_only: true,
      principals: [ownerId, aliceCreds.id],
    });
    const id = await sendToStream(alice, 'closet', 'old', 'before Bob');
    await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'closet' }], principals: [bobCreds.id] });
    const bobQueue = await EventReader.register(bob);
    const ownerQueue = await EventReader.register(api);
    t.equal((await alice.call('PATCH', `/messages/${id}`, { content: 'edited' })).status, 200);
    t.strictSame(await bobQueue.nextOfType('update_message'), [], 'Bob joined after it was sent');
    t.equal((await ownerQueue.nextOfType('update_message')).length, 1, 'a subscriber at send time gets it');
  });

  t.test('deleting: all IDs at once with bulk_message_deletion, one event per ID without it', async (t) => {
    const id = await sendToStream(alice, 'general', 'doomed', 'bye');
    const bulkQueue = await EventReader.register(bob, bulk);
    const singleQueue = await EventReader.register(bob);
    const res = await api.call('DELETE', `/messages/${id}`);
    t.equal(res.status, 200);
    t.strictSame(await bulkQueue.nextPayloads(), [
      { type: 'delete_message', message_type: 'stream', message_ids: [id], stream_id: general, topic: 'doomed' },
    ]);
    t.strictSame(await singleQueue.nextPayloads(), [
      { type: 'delete_message', message_type: 'stream', message_id: id, stream_id: general, topic: 'doomed' },
    ]);
  });

  t.test('deleting a direct message tells its participants only', async (t) => {
    const sent = await api.post('/messages', { type: 'direct', to: [bobCreds.id], content: 'private words' });
    const id = sent.body['id'] as number;
    const bobQueue = await EventReader.register(bob, bulk);
    const ownerQueue = await EventReader.register(api, bulk);
    const aliceQueue = await EventReader.register(alice, bulk);
    const res = await api.call('DELETE', `/messages/${id}`);
    t.equal(res.status, 200, res.text);
    const expected = [{ type: 'delete_message', message_type: 'private', message_ids: [id] }];
    t.strictSame(await bobQueue.nextPayloads(), expected);
    t.strictSame(await ownerQueue.nextPayloads(), expected);
    t.strictSame(await aliceQueue.nextPayloads(), [], 'a user outside the conversation learns nothing');
  });

  t.test('a reaction goes to the message’s audience with the legacy user object', async (t) => {
    const id = await sendToStream(alice, 'vault', 'r', 'react to me');
    const aliceQueue = await EventReader.register(alice);
    const bobQueue = await EventReader.register(bob);
    t.equal((await api.post(`/messages/${id}/reactions`, { emoji_name: 'smile' })).status, 200);
    const owner = (await api.get('/users/me')).body;
    t.strictSame(await aliceQueue.nextPayloads(), [
      {
        type: 'reaction',
        op: 'add',
        message_id: id,
        emoji_name: 'smile',
        emoji_code: '1f642',
        reaction_type: 'unicode_emoji',
        user_id: ownerId,
        user: { user_id: ownerId, email: owner['email'], full_name: owner['full_name'] },
      },
    ]);
    t.strictSame(await bobQueue.nextPayloads(), [], 'no access to the private stream: nothing');
    t.equal((await api.call('DELETE', `/messages/${id}/reactions`, { emoji_name: 'smile' })).status, 200);
    hasFields(t, await aliceQueue.nextPayloads(), [{ type: 'reaction', op: 'remove', message_id: id, emoji_name: 'smile' }]);
  });

  t.test('a flag change goes to the user alone; marking unread carries message_details', async (t) => {
    const streamMessage = await sendToStream(alice, 'general', 'flagged', 'star me');
    const direct = (await alice.post('/messages', { type: 'direct', to: [bobCreds.id], content: 'dm' })).body['id'] as number;
    const bobQueue = await EventReader.register(bob);
    const aliceQueue = await EventReader.register(alice);
    await bob.post('/messages/flags', { op: 'add', flag: 'starred', messages: [streamMessage] });
    t.strictSame(await bobQueue.nextPayloads(), [
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [streamMessage], all: false },
    ]);
    await bob.post('/messages/flags', { op: 'add', flag: 'read', messages: [streamMessage, direct] });
    await bobQueue.next();
    await bob.post('/messages/flags', { op: 'remove', flag: 'read', messages: [streamMessage, direct] });
    t.strictSame(await bobQueue.nextPayloads(), [
      {
        type: 'update_message_flags',
        op: 'remove',
        operation: 'remove',
        flag: 'read',
        messages: [streamMessage, direct],
        all: false,
        message_details: {
          [String(streamMessage)]: { type: 'stream', stream_id: general, topic: 'flagged', unmuted_stream_msg: true },
          [String(direct)]: { type: 'private', user_ids: [aliceCreds.id] },
        },
      },
    ]);
    t.strictSame(await aliceQueue.nextPayloads(), [], 'another user learns nothing of Bob’s flags');
  });

  t.test('mark_all_as_read: op add, flag read, all true with an empty list', async (t) => {
    await alice.post('/messages', { type: 'direct', to: [bobCreds.id], content: 'unread' });
    const bobQueue = await EventReader.register(bob);
    t.equal((await bob.post('/mark_all_as_read')).status, 200);
    t.strictSame(await bobQueue.nextPayloads(), [
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: true },
    ]);
  });

  t.test('every event received validated against the declared union', async (t) => {
    t.ok(received.count > 0);
    t.strictSame(received.invalid, []);
  });
});
