import t from 'tap';
import { EventReader, received } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';

t.test('message events', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const aliceCreds = await createMember(api, 'Alice');
  const bobCreds = await createMember(api, 'Bob');
  const alice = api.as(aliceCreds);
  const bob = api.as(bobCreds);
  const general = await streamIdOf(api, 'general');
  // A private stream only Alice (and the owner, its creator) are on.
  await alice.post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], invite_only: true });
  const secret = await streamIdOf(api, 'secret');
  // Bob is on `general` only; `quiet` is public but Bob is not subscribed.
  await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'quiet' }] });
  // The test client's User-Agent is no human client: a sender's own copy is not marked read.

  t.test('a stream message reaches each subscriber with their own flags, not a non-subscriber', async (t) => {
    const aliceQueue = await EventReader.register(alice, { apply_markdown: true });
    const bobQueue = await EventReader.register(bob, { apply_markdown: true });
    const sent = await alice.post('/messages', { type: 'stream', to: 'general', topic: 'hello', content: `hi **bold**` });
    t.equal(sent.status, 200);
    const id = sent.body['id'] as number;
    const [aliceEvent] = await aliceQueue.nextOfType('message');
    const [bobEvent] = await bobQueue.nextOfType('message');
    t.strictSame(aliceEvent?.['flags'], []);
    t.strictSame(bobEvent?.['flags'], []);
    const message = bobEvent?.['message'] as Record<string, unknown>;
    t.equal(message['id'], id);
    t.equal(message['stream_id'], general);
    t.equal(message['display_recipient'], 'general');
    t.equal(message['subject'], 'hello');
    t.equal(message['sender_id'], aliceCreds.id);
    t.equal(message['content_type'], 'text/html');
    t.match(message['content'], /<strong>bold<\/strong>/);
    t.notOk('flags' in message, 'flags travel beside the message');
    t.notOk('local_message_id' in (bobEvent ?? {}));

    const quietQueue = await EventReader.register(bob);
    await api.post('/messages', { type: 'stream', to: 'quiet', topic: 't', content: 'not for Bob' });
    t.strictSame(await quietQueue.nextOfType('message'), [], 'Bob is not subscribed to quiet');
  });

  t.test('a mention sets `mentioned` in the mentioned user’s copy only', async (t) => {
    const aliceQueue = await EventReader.register(alice);
    const bobQueue = await EventReader.register(bob);
    const bobName = (await bob.get('/users/me')).body['full_name'] as string;
    await alice.post('/messages', { type: 'stream', to: 'general', topic: 'hello', content: `hi @**${bobName}**` });
    t.strictSame((await bobQueue.nextOfType('message'))[0]?.['flags'], ['mentioned']);
    t.strictSame((await aliceQueue.nextOfType('message'))[0]?.['flags'], []);
  });

  t.test('an alert word and a wildcard mention set has_alert_word and wildcard_mentioned for the receivers only', async (t) => {
    await bob.post('/users/me/alert_words', { alert_words: ['pineapple'] });
    const aliceQueue = await EventReader.register(alice);
    const bobQueue = await EventReader.register(bob);
    await alice.post('/messages', { type: 'stream', to: 'general', topic: 'fruit', content: 'pineapple for @**all**' });
    t.strictSame((await bobQueue.nextOfType('message'))[0]?.['flags'], ['wildcard_mentioned', 'has_alert_word']);
    t.strictSame((await aliceQueue.nextOfType('message'))[0]?.['flags'], [], 'not for the sender');
  });

  t.test('local_message_id goes only to the queue that sent queue_id and local_id', async (t) => {
    const sending = await EventReader.register(alice);
    const otherTab = await EventReader.register(alice);
    const bobQueue = await EventReader.register(bob);
    await alice.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'echo',
      content: 'x',
      queue_id: sending.queueId,
      local_id: '17.01',
    });
    t.equal((await sending.nextOfType('message'))[0]?.['local_message_id'], '17.01');
    t.notOk('local_message_id' in ((await otherTab.nextOfType('message'))[0] ?? {}));
    t.notOk('local_message_id' in ((await bobQueue.nextOfType('message'))[0] ?? {}));
  });

  t.test('apply_markdown false gives the raw content, client_extavatar a null avatar_url', async (t) => {
    const raw = await EventReader.register(bob, { apply_markdown: false, client_extavatar: true });
    const rendered = await EventReader.register(bob, { apply_markdown: true, client_extavatar: false });
    await alice.post('/messages', { type: 'stream', to: 'general', topic: 'md', content: '**raw**' });
    const rawMessage = (await raw.nextOfType('message'))[0]?.['message'] as Record<string, unknown>;
    t.equal(rawMessage['content'], '**raw**');
    t.equal(rawMessage['content_type'], 'text/x-markdown');
    t.equal(rawMessage['avatar_url'], null);
    const renderedMessage = (await rendered.nextOfType('message'))[0]?.['message'] as Record<string, unknown>;
    t.equal(renderedMessage['content'], '<p><strong>raw</strong></p>');
    t.type(renderedMessage['avatar_url'], 'string');
  });

  t.test('a direct message reaches its participants with display_recipient including the sender', async (t) => {
    const aliceQueue = await EventReader.register(alice);
    const bobQueue = await EventReader.register(bob);
    const ownerQueue = await EventReader.register(api);
    await alice.post('/messages', { type: 'direct', to: [bobCreds.id], content: 'psst' });
    const bobEvent = (await bobQueue.nextOfType('message'))[0];
    t.strictSame(bobEvent?.['flags'], []);
    const recipients = (bobEvent?.['message'] as Record<string, unknown>)['display_recipient'] as { id: number }[];
    t.strictSame(
      recipients.map((r) => r.id).sort((a, b) => a - b),
      [aliceCreds.id, bobCreds.id].sort((a, b) => a - b),
    );
    t.strictSame((await aliceQueue.nextOfType('message'))[0]?.['flags'], []);
    t.strictSame(await ownerQueue.nextOfType('message'), [], 'a third user does not get it');
  });

  t.test('event_types filters what a queue receives', async (t) => {
    const onlyReactions = await EventReader.register(bob, { event_types: ['reaction'] });
    const id = (await alice.post('/messages', { type: 'stream', to: 'general', topic: 'f', content: 'x' })).body['id'] as number;
    await alice.post(`/messages/${id}/reactions`, { emoji_name: 'smile' });
    t.strictSame(
      (await onlyReactions.nextPayloads()).map((e) => e['type']),
      ['reaction'],
    );
  });

  t.test('a narrow of one stream passes only that stream’s messages', async (t) => {
    const narrowed = await EventReader.register(alice, { narrow: [['stream', 'secret']] });
    await alice.post('/messages', { type: 'stream', to: 'general', topic: 'n', content: 'elsewhere' });
    await alice.post('/messages', { type: 'stream', to: 'secret', topic: 'n', content: 'here' });
    await bob.post('/messages', { type: 'direct', to: [aliceCreds.id], content: 'dm' });
    const messages = await narrowed.nextOfType('message');
    t.strictSame(
      messages.map((e) => (e['message'] as Record<string, unknown>)['stream_id']),
      [secret],
    );
  });

  t.test('a narrow of is:dm passes only direct messages', async (t) => {
    const narrowed = await EventReader.register(alice, { narrow: [['is', 'dm']], apply_markdown: true });
    await alice.post('/messages', { type: 'stream', to: 'general', topic: 'n', content: 'stream' });
    await bob.post('/messages', { type: 'direct', to: [aliceCreds.id], content: 'dm' });
    const messages = await narrowed.nextOfType('message');
    t.strictSame(
      messages.map((e) => (e['message'] as Record<string, unknown>)['content']),
      ['<p>dm</p>'],
    );
  });

  t.test('all_public_streams receives public streams the user is not on, never private ones', async (t) => {
    const everything = await EventReader.register(bob, { all_public_streams: true });
    await api.post('/messages', { type: 'stream', to: 'quiet', topic: 'p', content: 'public' });
    await alice.post('/messages', { type: 'stream', to: 'secret', topic: 'p', content: 'private' });
    const messages = await everything.nextOfType('message');
    t.strictSame(
      messages.map((e) => (e['message'] as Record<string, unknown>)['display_recipient']),
      ['quiet'],
    );
    t.strictSame(messages[0]?.['flags'], [], 'no per-user row: no flags');
  });

  t.test('the private stream’s messages do not reach a user without access', async (t) => {
    const aliceQueue = await EventReader.register(alice);
    const bobQueue = await EventReader.register(bob);
    const ownerQueue = await EventReader.register(api);
    await alice.post('/messages', { type: 'stream', to: 'secret', topic: 's', content: 'x' });
    t.equal((await aliceQueue.nextOfType('message')).length, 1, 'the subscriber gets it');
    t.strictSame(await bobQueue.nextOfType('message'), []);
    t.strictSame(await ownerQueue.nextOfType('message'), [], 'an administrator who is not subscribed does not');
  });

  t.test('every event received validated against the declared union', async (t) => {
    t.ok(received.count > 0);
    t.strictSame(received.invalid, []);
  });
});
