import t from 'tap';
import { ApiClient, request } from '../helpers/http';
import { createMember, fetchMessage } from '../helpers/fixtures';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

type Message = Record<string, unknown>;

t.test('messages', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');

  t.test('errors', async (t) => {
    t.test('an unknown stream name is STREAM_DOES_NOT_EXIST with the name', async (t) => {
      const res = await api.post('/messages', { type: 'stream', to: 'nowhere', topic: 't', content: 'x' });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: "Stream 'nowhere' does not exist", code: 'STREAM_DOES_NOT_EXIST', stream: 'nowhere' });
    });
    t.test('an unknown stream ID is STREAM_DOES_NOT_EXIST with the ID', async (t) => {
      const res = await api.post('/messages', { type: 'stream', to: 9999, topic: 't', content: 'x' });
      t.strictSame(res.body, {
        result: 'error',
        msg: "Stream with ID '9999' does not exist",
        code: 'STREAM_DOES_NOT_EXIST',
        stream_id: 9999,
      });
    });
    t.test('more than one stream is refused', async (t) => {
      const res = await api.post('/messages', { type: 'stream', to: ['general', 'other'], topic: 't', content: 'x' });
      t.strictSame(res.body, { result: 'error', msg: 'Cannot send to multiple streams', code: 'BAD_REQUEST' });
    });
    t.test('a stream message needs a non-empty topic', async (t) => {
      const missing = await api.post('/messages', { type: 'stream', to: 'general', content: 'x' });
      t.strictSame(missing.body, { result: 'error', msg: 'Missing topic', code: 'BAD_REQUEST' });
      const blank = await api.post('/messages', { type: 'stream', to: 'general', topic: '  ', content: 'x' });
      t.strictSame(blank.body, { result: 'error', msg: "Topic can't be empty!", code: 'BAD_REQUEST' });
    });
    t.test('empty content is refused', async (t) => {
      const res = await api.post('/messages', { type: 'stream', to: 'general', topic: 't', content: ' \n ' });
      t.strictSame(res.body, { result: 'error', msg: 'Message must not be empty', code: 'BAD_REQUEST' });
    });
    t.test('an invalid recipient user is BAD_REQUEST', async (t) => {
      const byId = await api.post('/messages', { type: 'direct', to: [alice.id, 4242], content: 'x' });
      t.strictSame(byId.body, { result: 'error', msg: 'Invalid user ID 4242', code: 'BAD_REQUEST' });
      const byEmail = await api.post('/messages', { type: 'direct', to: ['ghost@example.com'], content: 'x' });
      t.strictSame(byEmail.body, { result: 'error', msg: "Invalid email 'ghost@example.com'", code: 'BAD_REQUEST' });
      const badType = await api.post('/messages', { type: 'direct', to: '[{"id":1}]', content: 'x' });
      t.equal(badType.body['code'], 'REQUEST_VARIABLE_INVALID');
    });
    t.test('queue_id without local_id is refused', async (t) => {
      const res = await api.post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'x', queue_id: 'q' });
      t.equal(res.body['code'], 'REQUEST_VARIABLE_MISSING');
      t.equal(res.body['var_name'], 'local_id');
    });
    t.test('a private stream takes messages only from its subscribers', async (t) => {
      await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'owners-only' }], invite_only: true });
      const res = await api.as(alice).post('/messages', { type: 'stream', to: 'owners-only', topic: 't', content: 'x' });
      t.strictSame(res.body, { result: 'error', msg: "Not authorized to send to stream 'owners-only'", code: 'BAD_REQUEST' });
    });
    t.test('an administrators-only stream refuses members', async (t) => {
      await api.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'announcements' }],
        stream_post_policy: 2,
        principals: [alice.id, 1],
      });
      const res = await api.as(alice).post('/messages', { type: 'stream', to: 'announcements', topic: 't', content: 'x' });
      t.strictSame(res.body, { result: 'error', msg: 'Only organization administrators can send to this stream.', code: 'BAD_REQUEST' });
      const owner = await api.post('/messages', { type: 'stream', to: 'announcements', topic: 't', content: 'x' });
      t.equal(owner.status, 200);
    });
    t.test('a full-members-only stream refuses members and their bots inside the waiting period', async (t) => {
      await api.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'veterans' }],
        stream_post_policy: 3,
        principals: [alice.id, 1],
      });
      const bot = await api.as(alice).post('/bots', { full_name: 'Newcomer bot', short_name: 'newcomer' });
      const botUser = (await api.get(`/users/${String(bot.body['user_id'])}`)).body['user'] as { email: string };
      const botAuth = { email: botUser.email, key: String(bot.body['api_key']) };
      const send = (client: ApiClient) => client.post('/messages', { type: 'stream', to: 'veterans', topic: 't', content: 'x' });
      t.equal((await api.call('PATCH', '/realm', { waiting_period_threshold: 10 })).status, 200);
      const newMember = await send(api.as(alice));
      t.strictSame(newMember.body, { result: 'error', msg: 'New members cannot send to this stream.', code: 'BAD_REQUEST' });
      t.equal(newMember.status, 400);
      t.strictSame((await send(api.as(botAuth))).body, {
        result: 'error',
        msg: 'New members cannot send to this stream.',
        code: 'BAD_REQUEST',
      });
      t.equal((await send(api)).status, 200, 'the owner is no new member');
      t.equal((await api.call('PATCH', '/realm', { waiting_period_threshold: 0 })).status, 200);
      t.equal((await send(api.as(alice))).status, 200, 'without a waiting period every member is a full member');
    });
    t.test('fetching an unknown message or one the user cannot see is Invalid message(s)', async (t) => {
      const unknown = await api.get('/messages/999999');
      t.strictSame(unknown.body, { result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
      const secret = await api.post('/messages', { type: 'direct', to: [bob.id], content: 'just us' });
      const peek = await api.as(alice).get(`/messages/${String(secret.body['id'])}`);
      t.strictSame(peek.body, { result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
      // A path ID is digits only: -1 makes a URL of no route, as on the public server.
      const negative = await api.get('/messages/-1');
      t.strictSame(
        { status: negative.status, body: negative.body },
        { status: 404, body: { result: 'error', msg: 'Not found', code: 'BAD_REQUEST' } },
      );
    });
  });

  t.test('a stream message by name is stored and fetched with every spec field', async (t) => {
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'hello', content: 'hi *there*' });
    t.equal(sent.status, 200);
    t.type(sent.body['id'], 'number');
    const res = await api.get(`/messages/${String(sent.body['id'])}`);
    t.equal(res.body['raw_content'], 'hi *there*');
    const message = res.body['message'] as Message;
    hasFields(t, message, {
      id: sent.body['id'],
      type: 'stream',
      sender_id: 1,
      sender_email: server.owner.email,
      sender_full_name: String,
      sender_realm_str: 'default',
      avatar_url: String,
      client: String,
      content_type: 'text/html',
      display_recipient: 'general',
      flags: [],
      is_me_message: false,
      reactions: [],
      recipient_id: Number,
      stream_id: Number,
      subject: 'hello',
      submessages: [],
      timestamp: Number,
      topic_links: [],
    });
    t.notOk('edit_history' in message, 'never edited: no edit history');
    t.notOk('last_edit_timestamp' in message);
    const raw = await fetchMessage(api, sent.body['id'], false);
    t.equal(raw['content'], 'hi *there*');
    t.equal(raw['content_type'], 'text/x-markdown');
  });

  t.test('a stream can be named by ID, by JSON name or by a one-element list', async (t) => {
    const streams = await api.get('/streams');
    const general = (streams.body['streams'] as { name: string; stream_id: number }[]).find((s) => s.name === 'general');
    for (const to of [general?.stream_id ?? 0, '"general"', [general?.stream_id ?? 0], 'GENERAL']) {
      const sent = await api.post('/messages', { type: 'stream', to, topic: 'ways', content: 'x' });
      t.equal(sent.status, 200, JSON.stringify(to));
      t.equal((await fetchMessage(api, sent.body['id']))['display_recipient'], 'general');
    }
  });

  t.test('subject is accepted as the deprecated name of topic', async (t) => {
    const sent = await api.post('/messages', { type: 'stream', to: 'general', subject: 'legacy', content: 'x' });
    t.equal((await fetchMessage(api, sent.body['id']))['subject'], 'legacy');
  });

  t.test('direct messages by user IDs or emails, with direct and its alias private', async (t) => {
    const byIds = await api.post('/messages', { type: 'direct', to: [alice.id, bob.id], content: 'group' });
    t.equal(byIds.status, 200);
    const message = await fetchMessage(api.as(alice), byIds.body['id']);
    t.equal(message['type'], 'private');
    t.equal(message['subject'], '');
    t.notOk('stream_id' in message);
    t.strictSame(
      (message['display_recipient'] as { id: number }[]).map((r) => r.id),
      [1, alice.id, bob.id],
    );
    hasFields(t, (message['display_recipient'] as Message[])[1], {
      id: alice.id,
      email: alice.email,
      full_name: String,
      is_mirror_dummy: false,
    });
    const byEmails = await api.post('/messages', { type: 'private', to: [alice.email], content: 'one to one' }, 'multipart');
    t.equal(byEmails.status, 200);
    const legacyList = await api.post('/messages', { type: 'private', to: `${alice.email},${bob.email}`, content: 'csv' });
    t.equal(legacyList.status, 200);
    const again = await fetchMessage(api.as(bob), legacyList.body['id']);
    t.equal(again['recipient_id'], message['recipient_id'], 'the same people share one conversation');
    const toSelf = await api.as(bob).post('/messages', { type: 'direct', to: [bob.id], content: 'note to self' });
    t.equal(toSelf.status, 200);
  });

  t.test('message IDs increase in send order', async (t) => {
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) {
      const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'order', content: String(i) });
      ids.push(Number(sent.body['id']));
    }
    t.strictSame(
      [...ids].sort((a, b) => a - b),
      ids,
    );
    t.equal(new Set(ids).size, ids.length);
  });

  t.test('over-long content and topics are truncated, as the public API does', async (t) => {
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'T'.repeat(80), content: 'y'.repeat(10_050) });
    t.equal(sent.status, 200);
    const res = await api.get(`/messages/${String(sent.body['id'])}`, { apply_markdown: false });
    const message = res.body['message'] as Message;
    t.equal(String(message['content']).length, 10_000);
    t.match(String(message['content']), /\[message truncated\]$/);
    t.equal(String(message['subject']).length, 60);
    t.match(String(message['subject']), /\.\.\.$/);
  });

  t.test('a member may read public stream history they did not receive', async (t) => {
    const late = await createMember(api, 'Late');
    const sent = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'history' }] });
    t.equal(sent.status, 200);
    const msg = await api.post('/messages', { type: 'stream', to: 'history', topic: 't', content: 'old news' });
    const seen = await fetchMessage(api.as(late), msg.body['id']);
    t.strictSame(seen['flags'], ['read', 'historical']);
  });

  t.test('messages sent through the API stay unread for their sender', async (t) => {
    const sent = await api.as(alice).post('/messages', { type: 'direct', to: [bob.id], content: 'unread' });
    t.strictSame((await fetchMessage(api.as(alice), sent.body['id']))['flags'], []);
    t.strictSame((await fetchMessage(api.as(bob), sent.body['id']))['flags'], []);
  });

  t.test('the client name comes from the User-Agent', async (t) => {
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'ua', content: 'x' });
    t.equal((await fetchMessage(api, sent.body['id']))['client'], 'API', 'no User-Agent');
  });

  t.test('a client parameter names the client, before the User-Agent', async (t) => {
    const sentAs = async (client: string): Promise<unknown> => {
      const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'client', content: client, client });
      const message = await fetchMessage(api, sent.body['id']);
      return [message['client'], message['flags']];
    };
    t.strictSame(await sentAs('ExampleTerminal'), ['ExampleTerminal', ['read']], "a person's app: the sender's copy is read");
    t.strictSame(await sentAs('nightly-report'), ['nightly-report', []], 'a script: unread');
  });

  t.test("a person's own app marks the sender's copy read; API clients leave it unread", async (t) => {
    const flagsSentAs = async (userAgent: string): Promise<unknown> => {
      const sent = await request({
        baseUrl: server.baseUrl,
        method: 'POST',
        path: '/api/v1/messages',
        params: { type: 'stream', to: 'general', topic: 'ua', content: userAgent },
        auth: server.owner,
        headers: { 'User-Agent': userAgent },
      });
      const message = await fetchMessage(api, sent.body['id']);
      return [message['client'], message['flags']];
    };
    t.strictSame(await flagsSentAs('ExampleMobile/27.1 (Android 14)'), ['ExampleMobile', ['read']]);
    t.strictSame(await flagsSentAs('ExampleAndroid/1.0'), ['ExampleAndroid', ['read']]);
    t.strictSame(await flagsSentAs('ExampleElectron/5.11'), ['ExampleElectron', ['read']]);
    t.strictSame(await flagsSentAs('ios/16.1'), ['ios', ['read']]);
    t.strictSame(await flagsSentAs('ExamplePython/0.9.0'), ['ExamplePython', []]);
    t.strictSame(await flagsSentAs('node-fetch/1.0'), ['node-fetch', []]);
  });
});
