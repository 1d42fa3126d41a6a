import t from 'tap';
import { createMember, updateRealm } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { responseViolations } from '../helpers/openapi';
import { sendToStream, streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { deactivateUser, reactivateUser, setRole, updateSettings } from '../helpers/people';

// The realm settings these tests change, at their defaults (SPEC PATCH /realm).
const REALM_DEFAULTS = { message_content_edit_limit_seconds: 600, edit_topic_policy: 5, enable_spectator_access: false };

type Body = Record<string, unknown>;

t.test('POST /register', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');
  const register = (client: ApiClient, params: Record<string, string | number | boolean | object> = {}) => client.post('/register', params);

  t.test('without credentials in a realm closed to spectators it is refused as any API call', async (t) => {
    const res = await register(api.as(null));
    t.equal(res.status, 401);
    t.strictSame(res.body, { result: 'error', msg: 'Not logged in: API authentication or user session required' });
  });

  t.test('a guest may not ask for all_public_streams', async (t) => {
    const guest = await createMember(api, 'Guest');
    await setRole(api, guest.id, 600);
    const res = await register(api.as(guest), { all_public_streams: true });
    t.equal(res.status, 400);
    t.strictSame(res.body, { result: 'error', msg: 'User not authorized for this query', code: 'BAD_REQUEST' });
    const guestState = await register(api.as(guest), { fetch_event_types: ['default_streams'] });
    t.strictSame(guestState.body['realm_default_streams'], [], 'guests get no default streams');
  });

  t.test('a malformed event type list is refused', async (t) => {
    const res = await register(api, { fetch_event_types: 'alert_words' });
    t.equal(res.status, 400);
    t.strictSame(res.body, { result: 'error', msg: 'Argument "fetch_event_types" is not valid JSON.', code: 'BAD_REQUEST' });
  });

  t.test('with no type lists every data key is there, and the body conforms to the reference OpenAPI', async (t) => {
    const res = await register(api);
    t.equal(res.status, 200);
    for (const key of [
      'queue_id',
      'last_event_id',
      'service_feature_level',
      'service_version',
      'service_merge_base',
      'alert_words',
      'custom_profile_fields',
      'custom_profile_field_types',
      'realm_default_streams',
      'realm_default_stream_groups',
      'stop_words',
      'user_status',
      'user_settings',
      'realm_name',
      'max_message_length',
      'realm_users',
      'realm_non_active_users',
      'cross_realm_bots',
      'subscriptions',
      'unsubscribed',
      'never_subscribed',
      'streams',
      'max_message_id',
      'unread_msgs',
      'starred_messages',
      'user_topics',
      'realm_linkifiers',
      'realm_filters',
      'realm_playgrounds',
      'realm_emoji',
      'realm_user_groups',
      'recent_private_conversations',
      'presences',
      'server_timestamp',
      'drafts',
      'scheduled_messages',
      'muted_users',
      'realm_user_settings_defaults',
      'realm_domains',
      'realm_bots',
    ]) {
      t.ok(key in res.body, key);
    }
    t.notOk('muted_topics' in res.body, 'the legacy muted_topics only without user_topic');
    t.equal(res.body['last_event_id'], -1);
    t.type(res.body['queue_id'], 'string');
    t.strictSame(responseViolations('post', '/register', res.body), []);
  });

  t.test('fetch_event_types picks the keys; event_types is the fallback; null counts as absent', async (t) => {
    const only = await register(api, { fetch_event_types: ['alert_words', 'no_such_type'], event_types: ['message'] });
    t.strictSame(Object.keys(only.body).sort(), [
      'alert_words',
      'last_event_id',
      'msg',
      'queue_id',
      'result',
      'service_feature_level',
      'service_merge_base',
      'service_version',
    ]);
    const fallback = await register(api, { event_types: ['message'], fetch_event_types: 'null' });
    t.ok('max_message_id' in fallback.body);
    t.notOk('alert_words' in fallback.body);
    t.notOk('unread_msgs' in fallback.body, 'unread_msgs needs update_message_flags as well');
    const legacy = await register(api, { fetch_event_types: ['muted_topics'], narrow: 'null', event_types: 'null' });
    t.strictSame(legacy.body['muted_topics'], []);
  });

  t.test('realm settings and limits carry real values and neutral names', async (t) => {
    await updateRealm(api, { message_content_edit_limit_seconds: 1200, edit_topic_policy: 2 });
    const res = await register(api, { fetch_event_types: ['realm'] });
    const body = res.body;
    t.equal(body['realm_name'], 'Our organization');
    t.equal(body['realm_uri'], server.baseUrl.replace('127.0.0.1', 'localhost'));
    t.equal(body['realm_message_content_edit_limit_seconds'], 1200);
    t.equal(body['realm_edit_topic_policy'], 2);
    t.equal(body['realm_allow_message_editing'], true);
    t.equal(body['realm_enable_spectator_access'], false);
    t.equal(body['max_message_length'], 10000);
    t.equal(body['max_topic_length'], 60);
    t.equal(body['max_stream_name_length'], 60);
    t.equal(body['max_stream_description_length'], 1024);
    t.equal(body['event_queue_longpoll_timeout_seconds'], 90);
    t.equal(body['service_plan_is_not_limited'], true);
    // neutral names only (SPEC naming note): each vendor-prefixed key has its service_ form
    t.strictSame(
      Object.keys(body).filter((key) => key.endsWith('_plan_is_not_limited')),
      ['service_plan_is_not_limited'],
    );
    t.strictSame(
      Object.keys(body).filter((key) => key.endsWith('_feature_level')),
      ['service_feature_level'],
    );
    await updateRealm(api, REALM_DEFAULTS);
  });

  t.test('user settings: defaults, the stored value, and legacy keys only without user_settings_object', async (t) => {
    await updateSettings(api.as(alice), { enter_sends: true, emojiset: 'vendorb' });
    const types = ['user_settings', 'update_display_settings', 'update_global_notifications'];
    const legacy = await register(api.as(alice), { fetch_event_types: types });
    const settings = legacy.body['user_settings'] as Body;
    t.equal(settings['enter_sends'], true);
    t.equal(settings['emojiset'], 'vendorb');
    t.equal(settings['send_stream_typing_notifications'], true);
    t.equal(settings['email_address_visibility'], 1);
    t.type(settings['emojiset_choices'], Array);
    t.type(settings['available_notification_sounds'], Array);
    t.equal(legacy.body['enter_sends'], true, 'legacy display setting at top level');
    t.equal(legacy.body['enable_sounds'], true, 'legacy notification setting at top level');
    const modern = await register(api.as(alice), { fetch_event_types: types, client_capabilities: { user_settings_object: true } });
    t.ok('user_settings' in modern.body);
    t.notOk('enter_sends' in modern.body);
    t.notOk('enable_sounds' in modern.body);
  });

  t.test('realm_user lists active users by id, system bots, and the caller', async (t) => {
    await deactivateUser(api, bob.id);
    const res = await register(api.as(alice), { fetch_event_types: ['realm_user'] });
    const users = res.body['realm_users'] as Body[];
    const ids = users.map((u) => u['user_id'] as number);
    t.strictSame(
      ids,
      [...ids].sort((a, b) => a - b),
    );
    t.ok(ids.includes(alice.id));
    t.notOk(ids.includes(bob.id));
    t.notOk('is_active' in (users[0] as Body));
    t.strictSame(
      (res.body['realm_non_active_users'] as Body[]).map((u) => u['user_id']),
      [bob.id],
    );
    const bots = res.body['cross_realm_bots'] as Body[];
    t.equal(bots[0]?.['is_system_bot'], true);
    t.equal(res.body['user_id'], alice.id);
    t.equal(res.body['is_admin'], false);
    t.equal(res.body['email'], alice.email);
    t.equal((users[0] as Body)['avatar_url'], null, 'client_extavatar defaults to true when authenticated');
    const withUrls = await register(api.as(alice), { fetch_event_types: ['realm_user'], client_extavatar: false });
    t.match((withUrls.body['realm_users'] as Body[])[0]?.['avatar_url'], /^https:\/\//);
    await reactivateUser(api, bob.id);
  });

  t.test('subscriptions, unsubscribed and never_subscribed, with subscribers on request', async (t) => {
    const created = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'ops' }, { name: 'secret' }], invite_only: false });
    t.equal(created.status, 200, created.text);
    await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'hidden' }], invite_only: true });
    const opsId = await streamIdOf(api, 'ops');
    const hiddenId = await streamIdOf(api, 'hidden');
    const res = await register(api.as(alice), { fetch_event_types: ['subscription', 'stream'], include_subscribers: true });
    const subs = res.body['subscriptions'] as Body[];
    const general = subs.find((s) => s['name'] === 'general') as Body;
    t.equal(general['is_muted'], false);
    t.equal(general['in_home_view'], true);
    t.equal(general['desktop_notifications'], false, 'inherited settings are resolved without notification_settings_null');
    t.ok((general['subscribers'] as number[]).includes(alice.id));
    const never = res.body['never_subscribed'] as Body[];
    t.ok(never.some((s) => s['stream_id'] === opsId));
    t.notOk(
      never.some((s) => s['stream_id'] === hiddenId),
      'private streams stay hidden from members',
    );
    t.strictSame(res.body['unsubscribed'], []);
    const streams = (res.body['streams'] as Body[]).map((s) => s['stream_id']);
    t.ok(streams.includes(opsId));
    t.notOk(streams.includes(hiddenId));
    const nulls = await register(api.as(alice), {
      fetch_event_types: ['subscription'],
      client_capabilities: { notification_settings_null: true },
    });
    const plain = (nulls.body['subscriptions'] as Body[])[0] as Body;
    t.equal(plain['desktop_notifications'], null);
    t.notOk('subscribers' in plain);
    await api.as(alice).call('DELETE', '/users/me/subscriptions', { subscriptions: ['general'] }, 'query');
    const left = await register(api.as(alice), { fetch_event_types: ['subscription'] });
    t.strictSame(
      (left.body['unsubscribed'] as Body[]).map((s) => s['name']),
      ['general'],
    );
    await api.as(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }] });
  });

  t.test('messages: max id, unread counts by conversation, mentions, starred, recent conversations', async (t) => {
    const streamMsg = await sendToStream(api, 'general', 'lunch', `@**${'Alice'}** food?`);
    const direct = await api.post('/messages', { type: 'direct', to: [alice.id], content: 'hi' });
    const group = await api.post('/messages', { type: 'direct', to: [alice.id, bob.id], content: 'all' });
    const directId = direct.body['id'] as number;
    const groupId = group.body['id'] as number;
    await api.as(alice).post('/messages/flags', { messages: [streamMsg], op: 'add', flag: 'starred' });
    const res = await register(api.as(alice), {
      fetch_event_types: ['message', 'update_message_flags', 'starred_messages', 'recent_private_conversations'],
    });
    t.equal(res.body['max_message_id'], groupId);
    const unread = res.body['unread_msgs'] as Body;
    t.equal(unread['count'], 3);
    t.strictSame(unread['pms'], [{ other_user_id: 1, sender_id: 1, message_ids: [directId] }]);
    t.strictSame(unread['streams'], [{ stream_id: await streamIdOf(api, 'general'), topic: 'lunch', unread_message_ids: [streamMsg] }]);
    t.strictSame(unread['huddles'], [{ user_ids_string: [1, alice.id, bob.id].sort((a, b) => a - b).join(','), message_ids: [groupId] }]);
    t.equal(unread['old_unreads_missing'], false);
    t.strictSame(res.body['starred_messages'], [streamMsg]);
    t.strictSame(res.body['recent_private_conversations'], [
      { max_message_id: groupId, user_ids: [1, bob.id].sort((a, b) => a - b) },
      { max_message_id: directId, user_ids: [1] },
    ]);
  });

  t.test('alert words, linkifiers per capability, scheduled messages, user groups appear', async (t) => {
    await api.as(alice).post('/users/me/alert_words', { alert_words: ['deploy'] });
    const linkifier = await api.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' });
    const at = Math.floor(Date.now() / 1000) + 3600;
    const scheduled = await api.as(alice).post('/scheduled_messages', {
      type: 'stream',
      to: await streamIdOf(api, 'general'),
      topic: 'later',
      content: 'soon',
      scheduled_delivery_timestamp: at,
    });
    t.equal(scheduled.status, 200, scheduled.text);
    await api.post('/user_groups/create', { name: 'ops team', description: 'on call', members: [alice.id] });
    const types = ['alert_words', 'realm_linkifiers', 'realm_filters', 'scheduled_messages', 'realm_user_groups'];
    const res = await register(api.as(alice), { fetch_event_types: types, client_capabilities: { linkifier_url_template: true } });
    t.strictSame(res.body['alert_words'], ['deploy']);
    t.strictSame(res.body['realm_linkifiers'], [
      { id: linkifier.body['id'], pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' },
    ]);
    t.strictSame(res.body['realm_filters'], []);
    const listed = await api.as(alice).get('/scheduled_messages');
    t.strictSame(res.body['scheduled_messages'], listed.body['scheduled_messages']);
    t.equal((res.body['scheduled_messages'] as Body[]).length, 1);
    const groups = res.body['realm_user_groups'] as Body[];
    t.strictSame(
      groups.find((g) => g['name'] === 'ops team'),
      {
        id: (groups.find((g) => g['name'] === 'ops team') as Body)['id'],
        name: 'ops team',
        description: 'on call',
        members: [alice.id],
        direct_subgroup_ids: [],
        is_system_group: false,
      },
    );
    const without = await register(api.as(alice), { fetch_event_types: ['realm_linkifiers'] });
    t.strictSame(without.body['realm_linkifiers'], [], 'empty without linkifier_url_template');
  });

  t.test('presence is keyed by user id with slim_presence, and the timestamp is a float of seconds', async (t) => {
    const res = await register(api, { fetch_event_types: ['presence'], slim_presence: true });
    t.strictSame(res.body['presences'], {});
    t.type(res.body['server_timestamp'], 'number');
    t.ok(Math.abs((res.body['server_timestamp'] as number) - Date.now() / 1000) < 3600);
  });

  t.test('custom profile field types use the spec names', async (t) => {
    const res = await register(api, { fetch_event_types: ['custom_profile_fields', 'stop_words'] });
    t.strictSame(res.body['custom_profile_fields'], []);
    t.strictSame((res.body['custom_profile_field_types'] as Body)['CHOICE'], { id: 3, name: 'List of options' });
    t.ok((res.body['stop_words'] as string[]).includes('the'));
  });

  t.test('spectators: errors for client_extavatar and include_subscribers, else web-public data only', async (t) => {
    await updateRealm(api, { enable_spectator_access: true });
    t.teardown(() => updateRealm(api, REALM_DEFAULTS));
    const anon = api.as(null);
    const avatar = await register(anon, { client_extavatar: true });
    t.equal(avatar.status, 400);
    t.strictSame(avatar.body, { result: 'error', msg: "Invalid 'client_extavatar' parameter for anonymous request", code: 'BAD_REQUEST' });
    const subscribers = await register(anon, { include_subscribers: true });
    t.equal(subscribers.status, 400);
    t.strictSame(subscribers.body, {
      result: 'error',
      msg: "Invalid 'include_subscribers' parameter for anonymous request",
      code: 'BAD_REQUEST',
    });
    const showcase = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'showcase' }], is_web_public: true });
    t.equal(showcase.status, 200, showcase.text);
    const res = await register(anon);
    t.equal(res.status, 200, res.text);
    t.equal(res.body['queue_id'], null);
    t.strictSame(
      (res.body['streams'] as Body[]).map((s) => s['name']),
      ['showcase'],
    );
    t.notOk('user_settings' in res.body);
    t.notOk('realm_users' in res.body);
    t.notOk('alert_words' in res.body);
    t.equal(res.body['realm_enable_spectator_access'], true);
  });
});
