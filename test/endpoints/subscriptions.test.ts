import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember } from '../helpers/fixtures';
import { startServer } from '../helpers/server';
import { NOTIFICATION_BOT_NAME, STREAM_EVENTS_TOPIC, newStreamNoticeHtml, newStreamNoticeId } from '../helpers/stream-notices';
import { hasFields } from '../helpers/exact';

interface Stream {
  name: string;
  stream_id: number;
  invite_only: boolean;
  [key: string]: unknown;
}

t.test('subscriptions and streams', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const ownerName = String((await api.get('/users/me')).body['full_name']);
  /** The client's `count` newest messages, oldest first. */
  const newestMessages = async (client: ApiClient, count: number): Promise<Record<string, unknown>[]> =>
    (await client.get('/messages', { anchor: 'newest', num_before: count, num_after: 0 })).body['messages'] as Record<string, unknown>[];
  /** The notification bot's announcements of new streams, in general (the announcement stream). */
  const announcements = async (): Promise<Record<string, unknown>[]> =>
    (
      await api.get('/messages', {
        anchor: 'newest',
        num_before: 100,
        num_after: 0,
        narrow: [
          { operator: 'stream', operand: 'general' },
          { operator: 'topic', operand: 'new streams' },
        ],
      })
    ).body['messages'] as Record<string, unknown>[];
  const streamsOf = async (client: ApiClient, params: Record<string, boolean> = {}): Promise<Stream[]> =>
    (await client.get('/streams', params)).body['streams'] as Stream[];
  const link = async (name: string): Promise<string> => {
    const id = (await streamsOf(api, { include_all_active: true })).find((s) => s.name === name)?.stream_id;
    return `<a class="stream" data-stream-id="${String(id)}" href="/#narrow/stream/${String(id)}-${name}">#${name}</a>`;
  };

  t.test('errors', async (t) => {
    t.test('an empty or too long stream name is refused', async (t) => {
      const empty = await api.post('/users/me/subscriptions', { subscriptions: [{ name: ' ' }] });
      t.strictSame(empty.body, { result: 'error', msg: "Stream name can't be empty!", code: 'BAD_REQUEST' });
      const long = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'n'.repeat(61) }] });
      t.strictSame(long.body, { result: 'error', msg: 'Stream name too long (limit: 60 characters).', code: 'BAD_REQUEST' });
      const control = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'a\u0001b' }] });
      t.strictSame(control.body, { result: 'error', msg: 'Invalid character in stream name, at position 2!', code: 'BAD_REQUEST' });
    });
    t.test('a too long description is refused', async (t) => {
      const res = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'd', description: 'x'.repeat(1025) }] });
      t.strictSame(res.body, {
        result: 'error',
        msg: 'subscriptions[0]["description"] is too long (limit: 1024 characters)',
        code: 'BAD_REQUEST',
      });
    });
    t.test('subscriptions must be a JSON list of objects with a name', async (t) => {
      const notJson = await api.post('/users/me/subscriptions', { subscriptions: 'general' });
      t.strictSame(notJson.body, { result: 'error', msg: 'Argument "subscriptions" is not valid JSON.', code: 'BAD_REQUEST' });
      const noName = await api.post('/users/me/subscriptions', { subscriptions: [{ description: 'x' }] });
      t.equal(noName.body['code'], 'REQUEST_VARIABLE_INVALID');
      t.equal(noName.body['msg'], 'subscriptions[0]["name"] is not a string');
    });
    t.test('an unknown principal is 403 UNAUTHORIZED_PRINCIPAL', async (t) => {
      const res = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }], principals: [4242] });
      t.equal(res.status, 403);
      t.strictSame(res.body, {
        result: 'error',
        msg: "User not authorized to execute queries on behalf of '4242'",
        code: 'UNAUTHORIZED_PRINCIPAL',
        principal: 4242,
      });
    });
    t.test('a private stream the user cannot access: an error without code, or unauthorized', async (t) => {
      await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], invite_only: true });
      const fatal = await api.as(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }] });
      t.equal(fatal.status, 400);
      t.strictSame(fatal.body, { result: 'error', msg: 'Unable to access stream (secret).' });
      const soft = await api
        .as(alice)
        .post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }, { name: 'general' }], authorization_errors_fatal: false });
      t.equal(soft.status, 200);
      t.strictSame(soft.body['unauthorized'], ['secret']);
      t.strictSame(soft.body['already_subscribed'], { [alice.email]: ['general'] });
    });
    t.test('web-public streams are not enabled in this organization', async (t) => {
      const res = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'web' }], is_web_public: true });
      t.strictSame(res.body, { result: 'error', msg: 'Web-public streams are not enabled.', code: 'BAD_REQUEST' });
    });
    t.test('can_remove_subscribers_group_id must be an allowed system group', async (t) => {
      const res = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'g' }], can_remove_subscribers_group_id: 1 });
      t.strictSame(res.body, { result: 'error', msg: 'Invalid user group ID: 1', code: 'BAD_REQUEST' });
    });
    t.test('only administrators may list every active stream', async (t) => {
      const res = await api.as(alice).get('/streams', { include_all_active: true });
      t.strictSame(res.body, { result: 'error', msg: 'User not authorized for this query', code: 'BAD_REQUEST' });
    });
  });

  t.test('subscribing creates missing streams and reports subscribed and already_subscribed', async (t) => {
    const res = await api.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'design', description: 'Pixels & *type*' }, { name: 'general' }],
    });
    t.equal(res.status, 200);
    t.strictSame(res.body, {
      result: 'success',
      msg: '',
      subscribed: { [server.owner.email]: ['design'] },
      already_subscribed: { [server.owner.email]: ['general'] },
    });
    const design = (await streamsOf(api)).find((s) => s.name === 'design');
    const notice = await newStreamNoticeId(api, design?.stream_id ?? -1);
    hasFields(t, design, {
      description: 'Pixels & *type*',
      rendered_description: String,
      invite_only: false,
      is_web_public: false,
      stream_post_policy: 1,
      message_retention_days: null,
      history_public_to_subscribers: true,
      first_message_id: notice,
      is_announcement_only: false,
      can_remove_subscribers_group_id: Number,
      date_created: Number,
    });
    t.notOk(design && 'is_default' in design, 'is_default only on request');
  });

  t.test('principals subscribe other users, by ID or email', async (t) => {
    const bob = await createMember(api, 'Bob');
    const res = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'team' }], principals: [alice.id, bob.email] });
    t.strictSame(res.body['subscribed'], { [alice.email]: ['team'], [bob.email]: ['team'] });
    t.ok((await streamsOf(api.as(bob), { include_public: false })).some((s) => s.name === 'team'));
    // A stream created for them introduces itself with its notice; no direct message, as in the public API.
    const [notice] = await newestMessages(api.as(bob), 1);
    hasFields(t, notice, { sender_full_name: NOTIFICATION_BOT_NAME, display_recipient: 'team', subject: STREAM_EVENTS_TOPIC, flags: [] });
    t.equal(notice?.['content'], newStreamNoticeHtml('Public', { id: 1, fullName: ownerName }));

    // Subscribed later to a stream that already exists, a user hears it from the notification bot.
    const carol = await createMember(api, 'Carol');
    const later = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'team' }], principals: [carol.id] });
    t.strictSame(later.body['subscribed'], { [carol.email]: ['team'] });
    const [told] = await newestMessages(api.as(carol), 1);
    hasFields(t, told, { sender_full_name: NOTIFICATION_BOT_NAME, type: 'private', flags: [] });
    t.equal(
      told?.['content'],
      `<p><span class="user-mention silent" data-user-id="1">${ownerName}</span> subscribed you to the stream ${await link('team')}.</p>`,
    );
  });

  t.test('announce has the notification bot announce a new public stream', async (t) => {
    const before = await announcements();
    await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'quiet' }] });
    t.strictSame(await announcements(), before, 'not announced without announce');
    const res = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'announced' }], announce: true });
    t.equal(res.status, 200);
    const after = await announcements();
    t.equal(after.length, before.length + 1);
    const announcement = after[after.length - 1] as Record<string, unknown>;
    hasFields(t, announcement, {
      sender_full_name: NOTIFICATION_BOT_NAME,
      display_recipient: 'general',
      subject: 'new streams',
      flags: ['read'],
    });
    t.equal(
      announcement['content'],
      `<p><span class="user-mention silent" data-user-id="1">${ownerName}</span> created a new stream ${await link('announced')}.</p>`,
    );
    const general = (await streamsOf(api)).find((s) => s.name === 'general');
    t.equal(general?.['first_message_id'], announcement['id'], 'the first message of a stream that had none sets its first_message_id');
    await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'hush' }], announce: true, invite_only: true });
    t.strictSame(await announcements(), after, 'private streams are not announced');
  });

  t.test('creation settings apply to new streams and are ignored for existing ones', async (t) => {
    await api.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'private-one' }],
      invite_only: true,
      stream_post_policy: 4,
      message_retention_days: 30,
    });
    const created = (await streamsOf(api)).find((s) => s.name === 'private-one');
    hasFields(t, created, { invite_only: true, stream_post_policy: 4, message_retention_days: 30, history_public_to_subscribers: false });
    await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'private-one' }], invite_only: false });
    t.equal((await streamsOf(api)).find((s) => s.name === 'private-one')?.invite_only, true);
    await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'forever' }], message_retention_days: 'unlimited' });
    t.equal((await streamsOf(api)).find((s) => s.name === 'forever')?.['message_retention_days'], -1);
  });

  t.test('only owners may set message retention', async (t) => {
    const res = await api.as(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'short' }], message_retention_days: 5 });
    t.strictSame(res.body, { result: 'error', msg: 'Must be an organization owner', code: 'UNAUTHORIZED_PRINCIPAL' });
  });

  t.test('GET /streams: defaults, include_public, include_subscribed, include_default, include_all_active', async (t) => {
    const mine = await streamsOf(api.as(alice));
    const names = mine.map((s) => s.name);
    t.ok(names.includes('general'));
    t.notOk(names.includes('secret'), 'private streams of others are hidden');
    t.strictSame(
      [...names].sort((a, b) => a.localeCompare(b)),
      names,
      'sorted by name',
    );
    const subscribedOnly = (await streamsOf(api.as(alice), { include_public: false })).map((s) => s.name);
    t.strictSame(subscribedOnly.sort(), ['general', 'team']);
    const none = await streamsOf(api.as(alice), { include_public: false, include_subscribed: false });
    t.strictSame(none, []);
    const all = (await streamsOf(api, { include_all_active: true })).map((s) => s.name);
    t.ok(all.includes('secret'));
    const withDefault = await streamsOf(api, { include_default: true });
    t.equal(withDefault.find((s) => s.name === 'general')?.['is_default'], true);
    t.equal(withDefault.find((s) => s.name === 'design')?.['is_default'], false);
  });

  t.test("a new stream's first_message_id is its notice's, and later messages leave it", async (t) => {
    const design = (await streamsOf(api)).find((s) => s.name === 'design');
    const notice = await newStreamNoticeId(api, design?.stream_id ?? -1);
    t.equal(design?.['first_message_id'], notice);
    const sent = await api.post('/messages', { type: 'stream', to: 'design', topic: 't', content: 'first' });
    t.ok((sent.body['id'] as number) > notice);
    t.equal((await streamsOf(api)).find((s) => s.name === 'design')?.['first_message_id'], notice);
  });
});
