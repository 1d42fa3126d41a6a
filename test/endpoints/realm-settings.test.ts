import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { responseViolations } from '../helpers/openapi';
import { RealmFile, sendToStream, streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { setRole } from '../helpers/people';
import { hasFields } from '../helpers/exact';

// PATCH /realm (administrators; owners for owner-only settings), its `realm` events
// (api-notes §d update / update_dict), register's realm_* keys, and the rules that read them.

const ERROR = { result: 'error', code: 'BAD_REQUEST' };

/** Events in a canonical order: one request's settings are announced in no promised order. */
function sorted(events: Record<string, unknown>[]): Record<string, unknown>[] {
  return [...events].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

t.test('PATCH /realm', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const memberCredentials = await createMember(owner, 'Member');
  const member = owner.as(memberCredentials);
  const adminCredentials = await createMember(owner, 'Admin');
  const admin = owner.as(adminCredentials);
  const file = new RealmFile(server);
  t.teardown(() => file.close());
  await setRole(owner, adminCredentials.id, 200);
  const realmState = async (client: ApiClient = member): Promise<Record<string, unknown>> =>
    (await client.post('/register', { fetch_event_types: ['realm', 'realm_user'] })).body;

  await t.test('errors', async (t) => {
    await t.test('a member may not change realm settings', async (t) => {
      const res = await member.call('PATCH', '/realm', { name: 'Mine' });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    });
    for (const [name, value] of [
      ['message_retention_days', 30],
      ['waiting_period_threshold', 3],
      ['invite_required', false],
      ['invite_to_realm_policy', 2],
      ['emails_restricted_to_domains', true],
      ['disallow_disposable_email_addresses', false],
    ] as const) {
      await t.test(`only an owner may change ${name}`, async (t) => {
        const res = await admin.call('PATCH', '/realm', { [name]: value });
        t.equal(res.status, 400);
        t.strictSame(res.body, { result: 'error', msg: 'Must be an organization owner', code: 'UNAUTHORIZED_PRINCIPAL' });
      });
    }
    const invalid: [string, Record<string, string | number | boolean>, string][] = [
      ['a policy outside its values', { create_public_stream_policy: 9 }, 'Invalid create_public_stream_policy'],
      ['members for the web-public policy', { create_web_public_stream_policy: 1 }, 'Invalid create_web_public_stream_policy'],
      ['an unknown edit topic policy', { edit_topic_policy: 0 }, 'Invalid edit_topic_policy'],
      ['an unknown bot creation policy', { bot_creation_policy: 4 }, 'Invalid bot_creation_policy'],
      ['an unknown video call provider', { video_chat_provider: 9 }, 'Invalid video_chat_provider 9'],
      ['an unknown GIF rating', { giphy_rating: 9 }, 'Invalid giphy_rating 9'],
      ['a name over 40 characters', { name: 'n'.repeat(41) }, 'name is too long (limit: 40 characters)'],
      ['a description over 1000 characters', { description: 'd'.repeat(1001) }, 'description is too long (limit: 1000 characters)'],
      ['an unknown language', { default_language: 'xx' }, "Invalid language 'xx'"],
      ['an unknown notifications stream', { notifications_stream_id: 9999 }, 'Invalid stream ID'],
      ['an unknown signup notifications stream', { signup_notifications_stream_id: 9999 }, 'Invalid stream ID'],
      ['an organization type outside the list', { org_type: 15 }, 'Invalid org_type'],
    ];
    for (const [name, params, msg] of invalid) {
      await t.test(`${name} is refused`, async (t) => {
        const res = await owner.call('PATCH', '/realm', params);
        t.equal(res.status, 400);
        t.strictSame(res.body, { ...ERROR, msg });
      });
    }
    for (const [name, value] of [
      ['message_content_edit_limit_seconds', 0],
      ['move_messages_within_stream_limit_seconds', -5],
      ['message_content_delete_limit_seconds', 'forever'],
      ['message_retention_days', 0],
      ['waiting_period_threshold', -1],
    ] as const) {
      await t.test(`${name} = ${value} is refused`, async (t) => {
        const res = await owner.call('PATCH', '/realm', { [name]: value });
        t.equal(res.status, 400);
        t.strictSame(res.body, {
          result: 'error',
          msg: `Bad value for '${name}': ${value}`,
          code: 'REQUEST_VARIABLE_INVALID',
          var_name: name,
          bad_value: value,
        });
      });
    }
    await t.test('a request with one bad setting changes none', async (t) => {
      const before = (await realmState())['realm_name'];
      const res = await owner.call('PATCH', '/realm', { name: 'Half done', create_public_stream_policy: 9 });
      t.equal(res.status, 400);
      t.equal((await realmState())['realm_name'], before);
      t.not(before, 'Half done');
    });
  });

  await t.test('changes answer with the changed keys, announce each, and show in register', async (t) => {
    const watcher = await EventReader.register(member, { event_types: ['realm'] });
    const res = await admin.call('PATCH', '/realm', {
      name: 'Acme',
      description: 'Where things get made',
      allow_message_editing: true,
      edit_topic_policy: 2,
      message_content_edit_limit_seconds: 'unlimited',
      move_messages_within_stream_limit_seconds: 3600,
      move_messages_between_streams_policy: 1,
      default_language: 'de',
      mandatory_topics: true,
      wildcard_mention_policy: 6,
    });
    t.equal(res.status, 200, res.text);
    // allow_message_editing is already true: unchanged settings are not in the answer.
    t.strictSame(res.body, {
      result: 'success',
      msg: '',
      name: 'updated',
      description: 'updated',
      edit_topic_policy: 2,
      message_content_edit_limit_seconds: null,
      move_messages_within_stream_limit_seconds: 3600,
      move_messages_between_streams_policy: 1,
      default_language: 'updated',
      mandatory_topics: true,
      wildcard_mention_policy: 6,
    });
    t.strictSame(
      sorted(await watcher.nextPayloads()),
      sorted([
        { type: 'realm', op: 'update', property: 'name', value: 'Acme' },
        { type: 'realm', op: 'update', property: 'description', value: 'Where things get made' },
        { type: 'realm', op: 'update_dict', property: 'default', data: { edit_topic_policy: 2 } },
        { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: null } },
        { type: 'realm', op: 'update', property: 'move_messages_within_stream_limit_seconds', value: 3600 },
        { type: 'realm', op: 'update', property: 'move_messages_between_streams_policy', value: 1 },
        { type: 'realm', op: 'update', property: 'default_language', value: 'de' },
        { type: 'realm', op: 'update', property: 'mandatory_topics', value: true },
        { type: 'realm', op: 'update', property: 'wildcard_mention_policy', value: 6 },
      ]),
    );
    hasFields(t, (await owner.as(null).get('/server_settings')).body, { realm_name: 'Acme', realm_description: 'Where things get made' });
    hasFields(t, await realmState(), {
      realm_name: 'Acme',
      realm_description: 'Where things get made',
      realm_edit_topic_policy: 2,
      realm_message_content_edit_limit_seconds: null,
      realm_move_messages_within_stream_limit_seconds: 3600,
      realm_move_messages_between_streams_policy: 1,
      realm_default_language: 'de',
      realm_mandatory_topics: true,
      realm_wildcard_mention_policy: 6,
    });
  });

  await t.test('a request that changes nothing answers with no keys and no events', async (t) => {
    const watcher = await EventReader.register(member, { event_types: ['realm'] });
    const res = await owner.call('PATCH', '/realm', { name: 'Acme', mandatory_topics: true });
    t.strictSame(res.body, { result: 'success', msg: '' });
    t.strictSame(await watcher.nextPayloads(), []);
  });

  await t.test('nobody (6) is a value of the topic-editing and stream-moving policies (7.0, feature level 159)', async (t) => {
    const before = await realmState();
    t.teardown(() =>
      owner.call('PATCH', '/realm', {
        edit_topic_policy: before['realm_edit_topic_policy'] as number,
        move_messages_between_streams_policy: before['realm_move_messages_between_streams_policy'] as number,
      }),
    );
    const res = await owner.call('PATCH', '/realm', { edit_topic_policy: 6, move_messages_between_streams_policy: 6 });
    t.strictSame(res.body, { result: 'success', msg: '', edit_topic_policy: 6, move_messages_between_streams_policy: 6 });
    hasFields(t, await realmState(), { realm_edit_topic_policy: 6, realm_move_messages_between_streams_policy: 6 });
  });

  await t.test('owners change the owner-only settings', async (t) => {
    const res = await owner.call('PATCH', '/realm', { message_retention_days: 30, waiting_period_threshold: 4 });
    t.strictSame(res.body, { result: 'success', msg: '', message_retention_days: 30, waiting_period_threshold: 4 });
    hasFields(t, await realmState(), { realm_message_retention_days: 30, realm_waiting_period_threshold: 4 });
    const unlimited = await owner.call('PATCH', '/realm', { message_retention_days: 'unlimited' });
    t.strictSame(unlimited.body, { result: 'success', msg: '', message_retention_days: -1 });
    t.equal((await realmState())['realm_message_retention_days'], -1);
  });

  await t.test('authentication_methods: owners switch methods, one must stay enabled, update_dict carries them all', async (t) => {
    const methods = { result: 'error', code: 'BAD_REQUEST' } as const;
    const notOwner = await admin.call('PATCH', '/realm', { authentication_methods: { Dev: true } });
    t.strictSame(notOwner.body, { result: 'error', msg: 'Must be an organization owner', code: 'UNAUTHORIZED_PRINCIPAL' });
    const none = await owner.call('PATCH', '/realm', { authentication_methods: { Email: false, Dev: false } });
    t.equal(none.status, 400);
    t.strictSame(none.body, { ...methods, msg: 'At least one authentication method must be enabled.' });
    const unknown = await owner.call('PATCH', '/realm', { authentication_methods: { Email: true, Carrier: true } });
    t.strictSame(unknown.body, { ...methods, msg: "Invalid authentication method: Carrier. Valid methods are: ['Dev', 'Email', 'LDAP']" });
    const notDict = await owner.call('PATCH', '/realm', { authentication_methods: ['Email'] });
    t.strictSame(notDict.body, {
      result: 'error',
      msg: 'authentication_methods is not a dict',
      code: 'REQUEST_VARIABLE_INVALID',
      var_name: 'authentication_methods',
    });
    t.strictSame((await realmState())['realm_authentication_methods'], { Email: true, Dev: false, LDAP: false }, 'nothing changed');

    const watcher = await EventReader.register(member, { event_types: ['realm'] });
    const res = await owner.call('PATCH', '/realm', { authentication_methods: { Email: false, LDAP: true } });
    t.strictSame(res.body, { result: 'success', msg: '', authentication_methods: { Email: false, LDAP: true } });
    t.strictSame(await watcher.nextPayloads(), [
      { type: 'realm', op: 'update_dict', property: 'default', data: { authentication_methods: { Email: false, Dev: false, LDAP: true } } },
    ]);
    const state = await realmState();
    t.strictSame(
      [state['realm_authentication_methods'], state['realm_email_auth_enabled'], state['realm_password_auth_enabled']],
      [{ Email: false, Dev: false, LDAP: true }, false, true],
    );
    const settings = (await owner.get('/server_settings')).body;
    t.strictSame(
      [settings['email_auth_enabled'], (settings['authentication_methods'] as Record<string, boolean>)['email']],
      [false, false],
    );
    const login = await owner.as(null).post('/fetch_api_key', { username: memberCredentials.email, password: memberCredentials.password });
    t.equal(login.status, 401);
    t.strictSame(login.body, {
      result: 'error',
      msg: 'Password authentication is disabled in this organization',
      code: 'PASSWORD_AUTH_DISABLED',
    });
    t.equal((await member.get('/users/me')).status, 200, 'API keys still work');

    const same = await owner.call('PATCH', '/realm', { authentication_methods: { LDAP: true } });
    t.strictSame(same.body, { result: 'success', msg: '' }, 'no change, no key');
    t.strictSame(await watcher.nextPayloads(), []);
    t.equal((await owner.call('PATCH', '/realm', { authentication_methods: { Email: true, LDAP: false } })).status, 200);
    t.strictSame((await realmState())['realm_authentication_methods'], { Email: true, Dev: false, LDAP: false });
    const again = await owner.as(null).post('/fetch_api_key', { username: memberCredentials.email, password: memberCredentials.password });
    t.equal(again.status, 200, 'password login is back');
  });

  await t.test('the notifications stream is a column of its own', async (t) => {
    const streams = (await owner.get('/streams')).body['streams'] as { stream_id: number; name: string }[];
    const general = streams.find((s) => s.name === 'general')?.stream_id ?? 0;
    await owner.call('PATCH', '/realm', { notifications_stream_id: -1 });
    t.equal((await realmState())['realm_notifications_stream_id'], -1);
    const res = await owner.call('PATCH', '/realm', { notifications_stream_id: general });
    t.strictSame(res.body, { result: 'success', msg: '', notifications_stream_id: general });
    t.equal((await realmState())['realm_notifications_stream_id'], general);
  });

  await t.test('the signup notifications stream: any stream an administrator may reach, or -1; announced and registered', async (t) => {
    t.equal((await realmState())['realm_signup_notifications_stream_id'], -1, 'none by default');
    const secret = await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'owners only' }], invite_only: true });
    t.equal(secret.status, 200, secret.text);
    const secretId = await streamIdOf(owner, 'owners only');
    // The public API lets administrators reach private streams they are not in; unknown IDs are refused (above).
    const privateStream = await admin.call('PATCH', '/realm', { signup_notifications_stream_id: secretId });
    t.strictSame(privateStream.body, { result: 'success', msg: '', signup_notifications_stream_id: secretId });
    const general = await streamIdOf(owner, 'general');
    const watcher = await EventReader.register(member, { event_types: ['realm'] });
    const res = await admin.call('PATCH', '/realm', { signup_notifications_stream_id: general });
    t.strictSame(res.body, { result: 'success', msg: '', signup_notifications_stream_id: general });
    t.strictSame(await watcher.nextPayloads(), [
      { type: 'realm', op: 'update', property: 'signup_notifications_stream_id', value: general },
    ]);
    t.equal((await realmState())['realm_signup_notifications_stream_id'], general);
    const off = await admin.call('PATCH', '/realm', { signup_notifications_stream_id: -1 });
    t.strictSame(off.body, { result: 'success', msg: '', signup_notifications_stream_id: -1 });
    t.equal((await realmState())['realm_signup_notifications_stream_id'], -1);
  });

  await t.test('the organization type: administrators change it, it is announced and registered', async (t) => {
    t.equal((await realmState())['realm_org_type'], 0, 'unspecified by default');
    const watcher = await EventReader.register(member, { event_types: ['realm'] });
    const res = await admin.call('PATCH', '/realm', { org_type: 20 });
    t.strictSame(res.body, { result: 'success', msg: '', org_type: 20 });
    t.strictSame(await watcher.nextPayloads(), [{ type: 'realm', op: 'update', property: 'org_type', value: 20 }]);
    t.equal((await realmState())['realm_org_type'], 20);
  });

  await t.test("a realm's own video-call server is not a 7.0 setting: the parameter is ignored", async (t) => {
    const res = await admin.call('PATCH', '/realm', { jitsi_server_url: 'https://calls.example.com/' });
    t.strictSame(res.body, { result: 'success', msg: '', ignored_parameters_unsupported: ['jitsi_server_url'] });
    t.equal((await realmState())['jitsi_server_url'], 'https://meet.jit.si', "register keeps the server's default");
    t.notOk('realm_jitsi_server_url' in (await realmState()));
  });

  await t.test('message editing follows allow_message_editing and the edit limit', async (t) => {
    const id = await sendToStream(member, 'general', 'edits', 'first draft');
    await owner.call('PATCH', '/realm', { allow_message_editing: false });
    const refused = await member.call('PATCH', `/messages/${id}`, { content: 'second draft' });
    t.strictSame(refused.body, { ...ERROR, msg: 'Your organization has turned off message editing' });
    await owner.call('PATCH', '/realm', { allow_message_editing: true, message_content_edit_limit_seconds: 60 });
    file.backdate(id, 120);
    const late = await member.call('PATCH', `/messages/${id}`, { content: 'second draft' });
    t.strictSame(late.body, { ...ERROR, msg: 'The time limit for editing this message has passed' });
    await owner.call('PATCH', '/realm', { message_content_edit_limit_seconds: 'unlimited' });
    const allowed = await member.call('PATCH', `/messages/${id}`, { content: 'second draft' });
    t.equal(allowed.status, 200, allowed.text);
  });

  await t.test('stream creation and invitation follow their policies, and register says so', async (t) => {
    hasFields(t, await realmState(), {
      can_create_public_streams: true,
      can_create_private_streams: true,
      can_subscribe_other_users: true,
    });
    await owner.call('PATCH', '/realm', { create_public_stream_policy: 2, invite_to_stream_policy: 2 });
    hasFields(t, await realmState(), {
      can_create_public_streams: false,
      can_create_private_streams: true,
      can_subscribe_other_users: false,
    });
    const create = await member.post('/users/me/subscriptions', { subscriptions: [{ name: 'brand new' }] });
    t.strictSame(create.body, { ...ERROR, msg: 'Insufficient permission' });
    const invite = await member.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'general' }],
      principals: [adminCredentials.id],
    });
    t.strictSame(invite.body, { ...ERROR, msg: 'Insufficient permission' });
    const byAdmin = await admin.post('/users/me/subscriptions', { subscriptions: [{ name: 'brand new' }] });
    t.equal(byAdmin.status, 200, byAdmin.text);
    await owner.call('PATCH', '/realm', { create_public_stream_policy: 1, invite_to_stream_policy: 1 });
  });

  await t.test('full-member policies wait for waiting_period_threshold days', async (t) => {
    const newcomerCredentials = await createMember(owner, 'Newcomer');
    const newcomer = owner.as(newcomerCredentials);
    await owner.call('PATCH', '/realm', { create_public_stream_policy: 3, waiting_period_threshold: 10 });
    const early = await newcomer.post('/users/me/subscriptions', { subscriptions: [{ name: 'newcomers' }] });
    t.strictSame(early.body, { ...ERROR, msg: 'Insufficient permission' });
    t.equal((await realmState(newcomer))['can_create_public_streams'], false);
    // Eleven days of membership, without waiting for them. Kept a file write (time travel): it moves
    // the stamp the realm clock wrote, and no endpoint does.
    file.run('UPDATE users SET date_joined = date_joined - ? WHERE id = ?', 11 * 24 * 60 * 60, newcomerCredentials.id);
    t.equal((await realmState(newcomer))['can_create_public_streams'], true);
    const later = await newcomer.post('/users/me/subscriptions', { subscriptions: [{ name: 'newcomers' }] });
    t.equal(later.status, 200, later.text);
    await owner.call('PATCH', '/realm', { create_public_stream_policy: 1, waiting_period_threshold: 0 });
  });

  await t.test('spectators may register only with enable_spectator_access', async (t) => {
    const spectator = owner.as(null);
    const before = await spectator.post('/register', {});
    t.equal(before.status, 401);
    const res = await owner.call('PATCH', '/realm', { enable_spectator_access: true });
    t.strictSame(res.body, { result: 'success', msg: '', enable_spectator_access: true });
    const after = await spectator.post('/register', {});
    t.equal(after.status, 200, after.text);
    t.equal(after.body['realm_enable_spectator_access'], true);
    t.equal((await spectator.get('/server_settings')).body['realm_web_public_access_enabled'], true);
    t.equal((await realmState(owner))['can_create_web_public_streams'], true, 'owners may now create web-public streams');
  });
});

t.test('PATCH /realm/user_settings_defaults', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const member = owner.as(await createMember(owner, 'Member'));
  const defaults = async (): Promise<Record<string, unknown>> =>
    (await member.post('/register', { fetch_event_types: ['realm_user_settings_defaults'] })).body[
      'realm_user_settings_defaults'
    ] as Record<string, unknown>;

  await t.test('errors', async (t) => {
    await t.test('a member may not change the defaults', async (t) => {
      const res = await member.call('PATCH', '/realm/user_settings_defaults', { enter_sends: true });
      t.strictSame(res.body, { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    });
    const cases: [Record<string, string | number>, string][] = [
      [{ emojiset: 'pixel' }, 'Invalid emojiset'],
      [{ color_scheme: 7 }, 'Invalid color_scheme'],
      [{ default_view: 'inbox' }, 'Invalid default_view'],
      [{ email_address_visibility: 6 }, 'Invalid email_address_visibility'],
      [{ notification_sound: 'siren' }, "Invalid notification sound 'siren'"],
      [{ email_notifications_batching_period_seconds: 0 }, 'Invalid email batching period: 0 seconds'],
    ];
    for (const [params, msg] of cases) {
      await t.test(`${msg} is refused`, async (t) => {
        const res = await owner.call('PATCH', '/realm/user_settings_defaults', params);
        t.equal(res.status, 400);
        t.strictSame(res.body, { ...ERROR, msg });
      });
    }
  });

  await t.test('changes are announced and shown in register; unknown names are listed as ignored', async (t) => {
    t.equal((await defaults())['emojiset'], 'vendora');
    const watcher = await EventReader.register(member, { event_types: ['realm_user_settings_defaults'] });
    const res = await owner.call('PATCH', '/realm/user_settings_defaults', {
      emojiset: 'text',
      email_address_visibility: 5,
      enter_sends: true,
      dense_mode: true,
      no_such_setting: 1,
    });
    t.strictSame(res.body, { result: 'success', msg: '', ignored_parameters_unsupported: ['no_such_setting'] });
    t.strictSame(responseViolations('patch', '/realm/user_settings_defaults', res.body), [], 'the body conforms to the reference OpenAPI');
    // dense_mode is already true: no event for it.
    t.strictSame(
      sorted(await watcher.nextPayloads()),
      sorted([
        { type: 'realm_user_settings_defaults', op: 'update', property: 'emojiset', value: 'text' },
        { type: 'realm_user_settings_defaults', op: 'update', property: 'email_address_visibility', value: 5 },
        { type: 'realm_user_settings_defaults', op: 'update', property: 'enter_sends', value: true },
      ]),
    );
    hasFields(t, await defaults(), { emojiset: 'text', email_address_visibility: 5, enter_sends: true, dense_mode: true });
  });

  await t.test('users and bots created afterwards start with the defaults; existing users keep theirs', async (t) => {
    const settingsOf = async (client: ApiClient): Promise<Record<string, unknown>> =>
      (await client.post('/register', { fetch_event_types: ['user_settings'] })).body['user_settings'] as Record<string, unknown>;
    hasFields(t, await settingsOf(member), { emojiset: 'vendora', email_address_visibility: 1, enter_sends: false });
    const newcomer = owner.as(await createMember(owner, 'Newcomer'));
    hasFields(t, await settingsOf(newcomer), { emojiset: 'text', email_address_visibility: 5, enter_sends: true });
    const bot = await owner.post('/bots', { full_name: 'Defaults bot', short_name: 'defaults' });
    t.equal(bot.status, 200, bot.text);
    const botUser = (await owner.get(`/users/${String(bot.body['user_id'])}`)).body['user'] as Record<string, unknown>;
    const botClient = owner.as({ email: botUser['delivery_email'] as string, key: bot.body['api_key'] as string });
    hasFields(t, await settingsOf(botClient), { emojiset: 'text', enter_sends: true });
  });
});
