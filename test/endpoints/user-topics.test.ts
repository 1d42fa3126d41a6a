import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient, badRequest } from '../helpers/http';
import { sendToStream, streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

/** A server where Alice is subscribed to the public stream garden; vault is private, without her. */
async function gardenAndVault(t: {
  teardown(stop: () => unknown): void;
}): Promise<{ owner: ApiClient; alice: ApiClient; garden: number; vault: number }> {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const alice = owner.as(await createMember(owner, 'Alice'));
  await alice.post('/users/me/subscriptions', { subscriptions: [{ name: 'garden' }] });
  await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], invite_only: true });
  return { owner, alice, garden: await streamIdOf(owner, 'garden'), vault: await streamIdOf(owner, 'vault') };
}

t.test('topic visibility policies', async (t) => {
  const { owner, alice, garden, vault } = await gardenAndVault(t);
  const setPolicy = (stream_id: number, topic: string, visibility_policy: number) =>
    alice.post('/user_topics', { stream_id, topic, visibility_policy });
  const homeIds = async (): Promise<number[]> => {
    const res = await alice.get('/messages', {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: [
        ['in', 'home'],
        ['stream', 'garden'],
      ],
    });
    return (res.body['messages'] as { id: number }[]).map((m) => m.id);
  };

  t.test('errors', async (t) => {
    t.test('a visibility policy outside 0, 1, 2 is BAD_REQUEST', async (t) => {
      const res = await setPolicy(garden, 'weeds', 3);
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'Invalid visibility_policy', code: 'BAD_REQUEST' });
    });
    t.test('an unknown stream, or a private one the user is not in, is an invalid stream ID', async (t) => {
      const missing = await setPolicy(999999, 'weeds', 1);
      t.equal(missing.status, 400);
      t.strictSame(missing.body, { result: 'error', msg: 'Invalid stream ID', code: 'BAD_REQUEST' });
      const hidden = await setPolicy(vault, 'weeds', 1);
      t.strictSame(hidden.body, { result: 'error', msg: 'Invalid stream ID', code: 'BAD_REQUEST' });
    });
    t.test('the topic is required', async (t) => {
      const res = await alice.post('/user_topics', { stream_id: garden, visibility_policy: 1 });
      t.strictSame(res.body, { result: 'error', msg: "Missing 'topic' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'topic' });
    });
  });

  t.test('muting a topic without messages: user_topic event, register lists, legacy event', async (t) => {
    const modern = await EventReader.register(alice, { event_types: ['user_topic', 'muted_topics'] });
    const legacy = await EventReader.register(alice, { event_types: ['muted_topics'] });
    const res = await setPolicy(garden, 'no messages yet', 1);
    t.strictSame(res.body, { result: 'success', msg: '' });
    const [event, ...rest] = await modern.nextPayloads();
    t.strictSame(rest, [], 'a queue asking for user_topic gets no legacy muted_topics event');
    hasFields(t, event, { type: 'user_topic', stream_id: garden, topic_name: 'no messages yet', visibility_policy: 1 });
    const lastUpdated = event?.['last_updated'] as number;
    t.ok(Number.isInteger(lastUpdated) && lastUpdated > 1_600_000_000, 'last_updated is a UNIX timestamp in seconds');
    t.strictSame(await legacy.nextPayloads(), [{ type: 'muted_topics', muted_topics: [['garden', 'no messages yet', lastUpdated]] }]);
    const state = (await alice.post('/register', { event_types: ['user_topic'] })).body;
    t.strictSame(state['user_topics'], [
      { stream_id: garden, topic_name: 'no messages yet', last_updated: lastUpdated, visibility_policy: 1 },
    ]);
    const legacyState = (await alice.post('/register', { event_types: ['muted_topics'] })).body;
    t.strictSame(legacyState['muted_topics'], [['garden', 'no messages yet', lastUpdated]]);
    t.notOk('muted_topics' in state, 'no legacy list beside user_topics');
  });

  t.test('policy 0 removes the policy', async (t) => {
    const reader = await EventReader.register(alice, { event_types: ['user_topic'] });
    t.equal((await setPolicy(garden, 'no messages yet', 0)).status, 200);
    hasFields(t, await reader.nextPayloads(), [
      { type: 'user_topic', stream_id: garden, topic_name: 'no messages yet', visibility_policy: 0 },
    ]);
    const state = (await alice.post('/register', { event_types: ['user_topic'] })).body;
    t.strictSame(state['user_topics'], []);
  });

  t.test('in:home leaves out muted topics, whatever their case', async (t) => {
    const kept = await sendToStream(owner, 'garden', 'roses', 'red');
    const muted = await sendToStream(owner, 'garden', 'Weeds', 'pull them');
    t.equal((await setPolicy(garden, 'weeds', 1)).status, 200);
    const home = await homeIds();
    t.ok(home.includes(kept), 'the other topic stays');
    t.notOk(home.includes(muted), 'the muted topic is left out');
    t.equal((await setPolicy(garden, 'weeds', 0)).status, 200);
    t.ok((await homeIds()).includes(muted), 'back once the policy is removed');
  });

  t.test('an unmuted topic of a muted stream stays in in:home; in an unmuted stream, 2 acts as 0', async (t) => {
    const roses = await sendToStream(owner, 'garden', 'roses', 'white');
    const tulips = await sendToStream(owner, 'garden', 'tulips', 'yellow');
    t.equal((await setPolicy(garden, 'tulips', 2)).status, 200);
    t.ok((await homeIds()).includes(roses), 'unmuted stream: every topic shows');
    await alice.post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: garden, property: 'is_muted', value: true }],
    });
    const home = await homeIds();
    t.notOk(home.includes(roses), 'the muted stream is left out');
    t.ok(home.includes(tulips), 'but not its unmuted topic');
    const state = (await alice.post('/register', { event_types: ['user_topic'] })).body;
    hasFields(t, state['user_topics'], [{ stream_id: garden, topic_name: 'tulips', visibility_policy: 2 }]);
  });

  t.test('first_unread skips muted topics unless the narrow names the topic, and keeps unmuted topics of muted streams', async (t) => {
    const firstUnread = async (narrow: string[][]): Promise<unknown> =>
      (await alice.get('/messages', { anchor: 'first_unread', num_before: 0, num_after: 0, narrow })).body['anchor'];
    await alice.post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: garden, property: 'is_muted', value: false }],
    });
    t.equal((await alice.post('/mark_all_as_read')).status, 200);
    t.equal((await setPolicy(garden, 'quiet', 1)).status, 200);
    const quiet = await sendToStream(owner, 'garden', 'quiet', 'shh');
    const loud = await sendToStream(owner, 'garden', 'loud', 'hey');
    t.equal(await firstUnread([]), loud, 'the muted topic is skipped');
    t.equal(
      await firstUnread([
        ['stream', 'garden'],
        ['topic', 'quiet'],
      ]),
      quiet,
      'unless the narrow names it',
    );
    await alice.post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: garden, property: 'is_muted', value: true }],
    });
    const tulips = await sendToStream(owner, 'garden', 'tulips', 'open');
    t.equal(await firstUnread([]), tulips, 'in the muted stream only the unmuted topic counts');
  });
});

t.test('the legacy PATCH /users/me/subscriptions/muted_topics, urlencoded as the Python client sends it', async (t) => {
  const { alice, garden, vault } = await gardenAndVault(t);
  const patchMuted = (params: Record<string, string | number>) =>
    alice.call('PATCH', '/users/me/subscriptions/muted_topics', params, 'form');

  t.test('errors', async (t) => {
    t.strictSame((await patchMuted({ topic: 'weeds', op: 'add' })).body, badRequest("Missing 'stream_id' argument"), 'no stream');
    const both = await patchMuted({ stream: 'garden', stream_id: garden, topic: 'weeds', op: 'add' });
    t.equal(both.status, 400);
    t.strictSame(both.body, { ...badRequest('Unsupported parameter combination: stream_id, stream'), parameters: 'stream_id, stream' });
    const badOp = await patchMuted({ stream: 'garden', topic: 'weeds', op: 'toggle' });
    t.strictSame(badOp.body, { result: 'error', msg: 'Invalid op', code: 'REQUEST_VARIABLE_INVALID', var_name: 'op' });
    t.strictSame((await patchMuted({ stream: 'nowhere', topic: 'weeds', op: 'add' })).body, badRequest("Invalid stream name 'nowhere'"));
    t.strictSame(
      (await patchMuted({ stream_id: vault, topic: 'weeds', op: 'add' })).body,
      badRequest('Invalid stream ID'),
      'a private stream',
    );
    t.strictSame((await patchMuted({ stream: 'nowhere', topic: 'weeds', op: 'remove' })).body, badRequest('Topic is not muted'));
    t.strictSame((await patchMuted({ stream_id: 999999, topic: 'weeds', op: 'remove' })).body, badRequest('Topic is not muted'));
  });

  t.test('add by name mutes as POST /user_topics does, with the same events; remove by ID unmutes', async (t) => {
    const modern = await EventReader.register(alice, { event_types: ['user_topic'] });
    const legacy = await EventReader.register(alice, { event_types: ['muted_topics'] });
    const added = await patchMuted({ stream: 'garden', topic: 'weeds', op: 'add' });
    t.strictSame(added.body, { result: 'success', msg: '' });
    const [event] = await modern.nextPayloads();
    const lastUpdated = event?.['last_updated'];
    t.ok(typeof lastUpdated === 'number' && Number.isInteger(lastUpdated), 'last_updated is whole seconds');
    t.strictSame(event, { type: 'user_topic', stream_id: garden, topic_name: 'weeds', last_updated: lastUpdated, visibility_policy: 1 });
    t.strictSame(await legacy.nextPayloads(), [{ type: 'muted_topics', muted_topics: [['garden', 'weeds', lastUpdated]] }]);
    const state = (await alice.post('/register', { event_types: ['user_topic'] })).body;
    t.strictSame(state['user_topics'], [{ stream_id: garden, topic_name: 'weeds', last_updated: lastUpdated, visibility_policy: 1 }]);

    t.strictSame(
      (await patchMuted({ stream: 'garden', topic: 'weeds', op: 'add' })).body,
      { result: 'success', msg: '' },
      'muting again is no error',
    );
    await modern.nextPayloads();
    await legacy.nextPayloads();

    const removed = await patchMuted({ stream_id: garden, topic: 'weeds', op: 'remove' });
    t.strictSame(removed.body, { result: 'success', msg: '' });
    const [gone] = await modern.nextPayloads();
    t.strictSame(gone, {
      type: 'user_topic',
      stream_id: garden,
      topic_name: 'weeds',
      last_updated: gone?.['last_updated'],
      visibility_policy: 0,
    });
    t.strictSame(await legacy.nextPayloads(), [{ type: 'muted_topics', muted_topics: [] }]);
    t.strictSame((await alice.post('/register', { event_types: ['user_topic'] })).body['user_topics'], []);
    t.strictSame(
      (await patchMuted({ stream_id: garden, topic: 'weeds', op: 'remove' })).body,
      { result: 'success', msg: '' },
      'unmuting again is no error',
    );
  });
});
