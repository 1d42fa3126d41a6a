import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember, updateRealm } from '../helpers/fixtures';
import { sendToStream } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { NOTIFICATION_BOT_NAME, STREAM_EVENTS_TOPIC, createStream } from '../helpers/stream-notices';
import { setRole } from '../helpers/people';
import { hasFields } from '../helpers/exact';

/*
 * The read access matrix (issue "Streams and subscriptions", slice stream-reads): administrator,
 * member, guest and subscriber against a public stream, private streams with and without
 * shared history, and a web-public stream. Each row says what one viewer gets from every read.
 */

type StreamKey = 'public' | 'shared' | 'unshared' | 'web';
const STREAM_KEYS: readonly StreamKey[] = ['public', 'shared', 'unshared', 'web'];
const INVALID_STREAM_ID = { result: 'error', msg: 'Invalid stream ID', code: 'BAD_REQUEST' };

const ROLE_ADMINISTRATOR = 200;
const ROLE_GUEST = 600;

t.test('the read access matrix', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const subscriber = await createMember(api, 'Subscriber');
  const member = await createMember(api, 'Member');
  const guest = await createMember(api, 'Guest');
  const administrator = await createMember(api, 'Admin');
  await setRole(api, guest.id, ROLE_GUEST);
  await setRole(api, administrator.id, ROLE_ADMINISTRATOR);
  const asAlice = api.as(alice);

  const names: Record<StreamKey, string> = { public: 'acc-public', shared: 'acc-shared', unshared: 'acc-unshared', web: 'acc-web' };
  const settings: Record<StreamKey, Record<string, boolean>> = {
    public: {},
    shared: { invite_only: true, history_public_to_subscribers: true },
    unshared: { invite_only: true, history_public_to_subscribers: false },
    web: {},
  };
  // Each stream starts with the notification bot's new-stream notice, in its "stream events" topic.
  const ids = {} as Record<StreamKey, number>;
  const notice = {} as Record<StreamKey, number>;
  for (const key of STREAM_KEYS) {
    const created = await createStream(asAlice, names[key], settings[key]);
    ids[key] = created.streamId;
    notice[key] = created.noticeId;
  }
  // The owner makes acc-web web-public, which needs spectator access for the moment (SPEC PATCH /streams).
  await updateRealm(api, { enable_spectator_access: true });
  const madeWebPublic = await api.call('PATCH', `/streams/${ids.web}`, { is_web_public: true });
  if (madeWebPublic.status !== 200) throw new Error(`make ${names.web} web-public: ${madeWebPublic.text}`);
  await updateRealm(api, { enable_spectator_access: false });
  // That change has its own notice in the stream events topic, after the new-stream one.
  const newestWeb = await api.get('/messages', {
    anchor: 'newest',
    num_before: 1,
    num_after: 0,
    narrow: [{ operator: 'stream', operand: ids.web }],
  });
  const webAccessNotice = (newestWeb.body['messages'] as { id: number }[])[0]?.id as number;
  hasFields(t, (newestWeb.body['messages'] as unknown[])[0], { subject: STREAM_EVENTS_TOPIC, sender_full_name: NOTIFICATION_BOT_NAME });

  // One message before the subscriber joins, one after: only the unshared stream hides the first
  // (and the notice, which came before too).
  const before = {} as Record<StreamKey, number>;
  const after = {} as Record<StreamKey, number>;
  for (const key of STREAM_KEYS) before[key] = await sendToStream(asAlice, names[key], 'before', `${key} before`);
  const joined = await asAlice.post('/users/me/subscriptions', {
    subscriptions: STREAM_KEYS.map((key) => ({ name: names[key] })),
    principals: [subscriber.id],
  });
  t.equal(joined.status, 200, joined.text);
  for (const key of STREAM_KEYS) after[key] = await sendToStream(asAlice, names[key], 'after', `${key} after`);

  const noticesOf = (key: StreamKey) => (key === 'web' ? [notice[key], webAccessNotice] : [notice[key]]);
  const everything = (key: StreamKey) => ({
    topics: ['after', 'before', STREAM_EVENTS_TOPIC],
    messages: [...noticesOf(key), before[key], after[key]],
  });
  const sinceJoining = (key: StreamKey) => ({ topics: ['after'], messages: [after[key]] });
  const hidden = null;
  /** Per viewer and stream: what its topics and messages show, or null when the stream is invisible. */
  type Reads = { topics: string[]; messages: number[] } | null;
  interface Row {
    viewer: { email: string; key: string };
    /** GET /streams with the default flags. */
    listed: StreamKey[];
    /** GET /streams/{id}, GET /get_stream_id and GET /streams/{id}/members. */
    looksUp: StreamKey[];
    reads: Record<StreamKey, Reads>;
  }
  const rows: Record<string, Row> = {
    administrator: {
      viewer: administrator,
      listed: ['public', 'web'],
      looksUp: ['public', 'shared', 'unshared', 'web'],
      reads: { public: everything('public'), shared: hidden, unshared: hidden, web: everything('web') },
    },
    member: {
      viewer: member,
      listed: ['public', 'web'],
      looksUp: ['public', 'web'],
      reads: { public: everything('public'), shared: hidden, unshared: hidden, web: everything('web') },
    },
    guest: {
      viewer: guest,
      listed: [],
      looksUp: ['web'],
      reads: { public: hidden, shared: hidden, unshared: hidden, web: everything('web') },
    },
    subscriber: {
      viewer: subscriber,
      listed: ['public', 'shared', 'unshared', 'web'],
      looksUp: ['public', 'shared', 'unshared', 'web'],
      reads: { public: everything('public'), shared: everything('shared'), unshared: sinceJoining('unshared'), web: everything('web') },
    },
  };

  for (const [who, row] of Object.entries(rows)) {
    const client = api.as(row.viewer);
    t.test(`the ${who} lists ${row.listed.join(', ') || 'none of the streams'} with the default flags`, async (t) => {
      const res = await client.get('/streams');
      const listed = (res.body['streams'] as { name: string }[]).map((s) => s.name).filter((name) => name.startsWith('acc-'));
      t.strictSame(listed, row.listed.map((key) => names[key]).sort());
    });
    for (const key of STREAM_KEYS) {
      const visible = row.looksUp.includes(key);
      t.test(`the ${who} ${visible ? 'can' : 'cannot'} look up the ${key} stream and its subscribers`, async (t) => {
        const byId = await client.get(`/streams/${ids[key]}`);
        const byName = await client.get('/get_stream_id', { stream: names[key] });
        const members = await client.get(`/streams/${ids[key]}/members`);
        if (!visible) {
          t.strictSame(byId.body, INVALID_STREAM_ID);
          t.strictSame(byName.body, { result: 'error', msg: `Invalid stream name '${names[key]}'`, code: 'BAD_REQUEST' });
          t.strictSame(members.body, INVALID_STREAM_ID);
          return;
        }
        hasFields(t, byId.body, { result: 'success', stream: { stream_id: ids[key], name: names[key] } });
        t.strictSame(byName.body, { result: 'success', msg: '', stream_id: ids[key] });
        t.strictSame(members.body, { result: 'success', msg: '', subscribers: [alice.id, subscriber.id] });
      });
      const reads = row.reads[key];
      t.test(`the ${who} reads ${reads === null ? 'nothing' : reads.topics.join(' and ')} of the ${key} stream`, async (t) => {
        const topics = await client.get(`/users/me/${ids[key]}/topics`);
        const messages = await client.get('/messages', {
          anchor: 'newest',
          num_before: 100,
          num_after: 0,
          narrow: [{ operator: 'stream', operand: ids[key] }],
        });
        const messageIds = (messages.body['messages'] as { id: number }[] | undefined)?.map((m) => m.id);
        if (reads === null) {
          t.strictSame(topics.body, INVALID_STREAM_ID);
          t.strictSame(messageIds, [], 'no messages through a narrow either');
          return;
        }
        t.strictSame(
          (topics.body['topics'] as { name: string }[]).map((topic) => topic.name),
          reads.topics,
        );
        t.strictSame(messageIds, reads.messages);
      });
    }
  }

  t.test('a guest subscribed to a public stream sees it, its subscribers and its whole history', async (t) => {
    const asGuest = api.as(guest);
    await asAlice.post('/users/me/subscriptions', { subscriptions: [{ name: names.public }], principals: [guest.id] });
    t.teardown(() => api.call('DELETE', '/users/me/subscriptions', { subscriptions: [names.public], principals: [guest.id] }, 'query'));
    const listed = ((await asGuest.get('/streams')).body['streams'] as { name: string }[]).map((s) => s.name);
    t.strictSame(
      listed.filter((name) => name.startsWith('acc-')),
      [names.public],
    );
    t.strictSame((await asGuest.get(`/streams/${ids.public}/members`)).body['subscribers'], [alice.id, subscriber.id, guest.id]);
    const topics = (await asGuest.get(`/users/me/${ids.public}/topics`)).body['topics'] as { name: string }[];
    t.strictSame(
      topics.map((topic) => topic.name),
      ['after', 'before', STREAM_EVENTS_TOPIC],
    );
  });

  t.test('an administrator lists private streams only with include_all_active', async (t) => {
    const res = await api.as(administrator).get('/streams', { include_all_active: true });
    const listed = (res.body['streams'] as { name: string }[]).map((s) => s.name).filter((name) => name.startsWith('acc-'));
    t.strictSame(listed, STREAM_KEYS.map((key) => names[key]).sort());
  });

  t.test('a guest lists web-public streams with include_web_public', async (t) => {
    const res = await api.as(guest).get('/streams', { include_web_public: true });
    const listed = (res.body['streams'] as { name: string }[]).map((s) => s.name).filter((name) => name.startsWith('acc-'));
    t.strictSame(listed, [names.web]);
  });

  t.test('spectators', async (t) => {
    const spectator = api.as(null);
    const fetch = (narrow: object[], extra: Record<string, string | number | boolean> = {}) =>
      spectator.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow, ...extra });
    const notLoggedIn = { result: 'error', msg: 'Not logged in: API authentication or user session required' };
    const webPublic = { operator: 'streams', operand: 'web-public' };

    t.test('without spectator access, an unauthenticated fetch is the usual 401', async (t) => {
      const res = await fetch([webPublic]);
      t.equal(res.status, 401);
      t.strictSame(res.body, notLoggedIn);
    });

    t.test('with spectator access enabled', async (t) => {
      await updateRealm(api, { enable_spectator_access: true });
      t.teardown(() => updateRealm(api, { enable_spectator_access: false }));

      t.test('a narrow that is not web-public, or filters on per-user state, is refused as unauthenticated', async (t) => {
        for (const narrow of [
          [],
          [{ operator: 'stream', operand: ids.public }],
          [{ operator: 'streams', operand: 'public' }],
          [{ operator: 'streams', operand: 'web-public', negated: true }],
          [webPublic, { operator: 'is', operand: 'starred' }],
          [webPublic, { operator: 'dm', operand: [alice.id] }],
        ]) {
          const res = await fetch(narrow);
          t.equal(res.status, 401, JSON.stringify(narrow));
          t.strictSame(res.body, notLoggedIn, JSON.stringify(narrow));
        }
      });

      t.test('asking for client_extavatar is an error', async (t) => {
        const res = await fetch([webPublic], { client_extavatar: true });
        t.equal(res.status, 400);
        t.strictSame(res.body, { result: 'error', msg: "Invalid 'client_extavatar' parameter for anonymous request", code: 'BAD_REQUEST' });
      });

      t.test('streams:web-public reads every web-public stream, all of it read and historical', async (t) => {
        const res = await fetch([webPublic]);
        t.equal(res.status, 200, res.text);
        const messages = res.body['messages'] as Record<string, unknown>[];
        t.strictSame(
          messages.map((m) => m['id']),
          [...noticesOf('web'), before.web, after.web],
        );
        t.strictSame(messages[0]?.['flags'], ['read', 'historical']);
        t.equal(messages[0]?.['avatar_url'] !== null, true, 'avatars are sent to spectators');
      });

      t.test('a web-public stream narrow reads that stream, a topic of it too', async (t) => {
        const byName = await fetch([{ operator: 'stream', operand: names.web }]);
        t.strictSame(
          (byName.body['messages'] as { id: number }[]).map((m) => m.id),
          [...noticesOf('web'), before.web, after.web],
        );
        const topic = await fetch([
          { operator: 'stream', operand: ids.web },
          { operator: 'topic', operand: 'after' },
        ]);
        t.strictSame(
          (topic.body['messages'] as { id: number }[]).map((m) => m.id),
          [after.web],
        );
      });

      t.test('other streams named beside streams:web-public match nothing', async (t) => {
        const res = await fetch([webPublic, { operator: 'stream', operand: ids.shared }]);
        t.equal(res.status, 200, res.text);
        t.strictSame(res.body['messages'], []);
      });

      t.test('users still read as before', async (t) => {
        const res = await api.as(member).get('/messages', {
          anchor: 'newest',
          num_before: 100,
          num_after: 0,
          narrow: [{ operator: 'stream', operand: ids.public }],
        });
        t.strictSame(
          (res.body['messages'] as { id: number }[]).map((m) => m.id),
          [notice.public, before.public, after.public],
        );
      });
    });
  });
});
