import t from 'tap';
import type { ServerEvent } from '../../src/web/state/events';
import { applySnapshotEvent, buildSnapshot, isTopicMuted, sortedSubscriptions } from '../../src/web/state/snapshot';
import { ANN, BO, ME, register, subscription, user } from './fixtures';

const event = (fields: { type: string; [key: string]: unknown }): ServerEvent => ({ id: 1, ...fields });
const base = () => buildSnapshot(register(), 990);

t.test('the snapshot is built from the register response', async (t) => {
  const snapshot = base();
  t.equal(snapshot.me.full_name, 'Me');
  t.equal(snapshot.users.get(13)?.is_active, false, 'deactivated users are kept for their names');
  t.equal(snapshot.users.get(ANN)?.is_active, true);
  t.strictSame([...snapshot.streams.keys()], [1, 2, 3]);
  t.strictSame(
    sortedSubscriptions(snapshot).map((sub) => sub.name),
    ['design', 'general'],
    'pinned first, then by name',
  );
  t.equal(snapshot.realm['realm_name'], 'Example');
  t.equal(snapshot.realm['max_message_length'], 10000);
  t.equal(snapshot.userSettings['enter_sends'], true);
  t.strictSame(snapshot.presences.get(ANN), { active_timestamp: 100, idle_timestamp: 100 });
  t.equal(snapshot.userStatus.get(BO)?.status_text, 'on leave');
  t.ok(isTopicMuted(snapshot, 1, 'Noise'));
  t.equal(snapshot.serverTimeOffset, 10);
});

t.test('an event returns a new snapshot that shares what it did not change', async (t) => {
  const before = base();
  const after = applySnapshotEvent(before, event({ type: 'realm_user', op: 'update', person: { user_id: ANN, full_name: 'Ann B' } }));
  t.not(after, before);
  t.equal(after.users.get(ANN)?.full_name, 'Ann B');
  t.equal(before.users.get(ANN)?.full_name, 'Ann', 'the old snapshot is untouched');
  t.equal(after.subscriptions, before.subscriptions);
  t.equal(applySnapshotEvent(before, event({ type: 'heartbeat' })), before, 'an event it does not keep changes nothing');
});

t.test('people are added, updated (my own entry too) and deactivated', async (t) => {
  let snapshot = applySnapshotEvent(base(), event({ type: 'realm_user', op: 'add', person: user(20, 'New') }));
  t.equal(snapshot.users.get(20)?.full_name, 'New');
  snapshot = applySnapshotEvent(snapshot, event({ type: 'realm_user', op: 'update', person: { user_id: ME, role: 200 } }));
  t.equal(snapshot.me.is_admin, true, 'a role change makes me an administrator');
  snapshot = applySnapshotEvent(snapshot, event({ type: 'realm_user', op: 'remove', person: { user_id: 20, full_name: 'New' } }));
  t.equal(snapshot.users.get(20)?.is_active, false);
});

t.test('subscriptions follow add, remove, property updates and peers', async (t) => {
  let snapshot = applySnapshotEvent(base(), event({ type: 'subscription', op: 'add', subscriptions: [subscription(3, 'random')] }));
  t.ok(snapshot.subscriptions.has(3));
  snapshot = applySnapshotEvent(snapshot, event({ type: 'subscription', op: 'update', stream_id: 3, property: 'is_muted', value: true }));
  t.equal(snapshot.subscriptions.get(3)?.is_muted, true);
  snapshot = applySnapshotEvent(
    snapshot,
    event({ type: 'subscription', op: 'update', stream_id: 3, property: 'in_home_view', value: true }),
  );
  t.equal(snapshot.subscriptions.get(3)?.is_muted, false, 'in_home_view is the inverse of is_muted');
  snapshot = applySnapshotEvent(snapshot, event({ type: 'subscription', op: 'peer_add', stream_ids: [3, 99], user_ids: [ANN, BO] }));
  t.strictSame(snapshot.subscriptions.get(3)?.subscribers, [ME, ANN, BO]);
  snapshot = applySnapshotEvent(snapshot, event({ type: 'subscription', op: 'peer_remove', stream_ids: [3], user_ids: [ANN] }));
  t.strictSame(snapshot.subscriptions.get(3)?.subscribers, [ME, BO]);
  snapshot = applySnapshotEvent(snapshot, event({ type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 3, name: 'random' }] }));
  t.notOk(snapshot.subscriptions.has(3));
  t.ok(snapshot.streams.has(3), 'the stream stays visible after unsubscribing');
});

t.test('streams are created, renamed and deleted', async (t) => {
  let snapshot = applySnapshotEvent(base(), event({ type: 'stream', op: 'create', streams: [subscription(5, 'new')] }));
  t.equal(snapshot.streams.get(5)?.name, 'new');
  snapshot = applySnapshotEvent(
    snapshot,
    event({ type: 'stream', op: 'update', stream_id: 1, name: 'general', property: 'name', value: 'everyone' }),
  );
  t.equal(snapshot.streams.get(1)?.name, 'everyone');
  t.equal(snapshot.subscriptions.get(1)?.name, 'everyone', 'the subscription is renamed too');
  snapshot = applySnapshotEvent(
    snapshot,
    event({
      type: 'stream',
      op: 'update',
      stream_id: 1,
      name: 'everyone',
      property: 'description',
      value: 'd',
      rendered_description: '<p>d</p>',
    }),
  );
  t.equal(snapshot.streams.get(1)?.rendered_description, '<p>d</p>');
  snapshot = applySnapshotEvent(snapshot, event({ type: 'stream', op: 'delete', streams: [subscription(1, 'everyone')] }));
  t.notOk(snapshot.streams.has(1));
  t.notOk(snapshot.subscriptions.has(1));
});

t.test('presence, status, settings, topics, realm, emoji and linkifiers are applied', async (t) => {
  let snapshot = applySnapshotEvent(
    base(),
    event({
      type: 'presence',
      user_id: BO,
      email: 'bo@x',
      server_timestamp: 500,
      presence: { website: { client: 'website', status: 'active', timestamp: 500 } },
    }),
  );
  t.strictSame(snapshot.presences.get(BO), { active_timestamp: 500, idle_timestamp: 500 });
  snapshot = applySnapshotEvent(
    snapshot,
    event({
      type: 'presence',
      user_id: BO,
      email: 'bo@x',
      server_timestamp: 600,
      presence: { website: { client: 'website', status: 'idle', timestamp: 600 } },
    }),
  );
  t.strictSame(snapshot.presences.get(BO), { active_timestamp: 500, idle_timestamp: 600 }, 'idle keeps the last active time');
  snapshot = applySnapshotEvent(snapshot, event({ type: 'user_status', user_id: BO, emoji_name: 'palm_tree', emoji_code: '1f334' }));
  t.strictSame(
    snapshot.userStatus.get(BO),
    { status_text: 'on leave', emoji_name: 'palm_tree', emoji_code: '1f334' },
    'only the changed fields change',
  );
  snapshot = applySnapshotEvent(snapshot, event({ type: 'user_settings', op: 'update', property: 'color_scheme', value: 2 }));
  t.equal(snapshot.userSettings['color_scheme'], 2);
  snapshot = applySnapshotEvent(
    snapshot,
    event({ type: 'user_topic', stream_id: 1, topic_name: 'Noise', last_updated: 1, visibility_policy: 0 }),
  );
  t.notOk(isTopicMuted(snapshot, 1, 'Noise'), 'policy 0 removes the entry');
  snapshot = applySnapshotEvent(snapshot, event({ type: 'realm', op: 'update', property: 'name', value: 'Renamed' }));
  t.equal(snapshot.realm['realm_name'], 'Renamed');
  snapshot = applySnapshotEvent(
    snapshot,
    event({ type: 'realm', op: 'update_dict', property: 'default', data: { allow_message_editing: false } }),
  );
  t.equal(snapshot.realm['realm_allow_message_editing'], false);
  const emoji = { '1': { id: '1', name: 'party', source_url: '/e/1.png', deactivated: false, author_id: ME } };
  snapshot = applySnapshotEvent(snapshot, event({ type: 'realm_emoji', op: 'update', realm_emoji: emoji }));
  t.strictSame(snapshot.realmEmoji, emoji);
  snapshot = applySnapshotEvent(
    snapshot,
    event({ type: 'realm_linkifiers', realm_linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://x/{id}' }] }),
  );
  t.equal(snapshot.linkifiers.length, 1);
});
