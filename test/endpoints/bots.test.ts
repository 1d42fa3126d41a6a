import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember, updateRealm } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

// POST/GET/PATCH/DELETE /bots (the public server's bot endpoints) and GET /streams
// include_owner_subscribed for a bot.

t.test('bots', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const creatorCredentials = await createMember(owner, 'Creator');
  const creator = owner.as(creatorCredentials);
  const botEmailOf = async (client: ApiClient, botId: number): Promise<string> => {
    const bots = (await client.post('/register', { fetch_event_types: ['realm_bot'] })).body['realm_bots'] as {
      user_id: number;
      email: string;
    }[];
    return bots.find((b) => b.user_id === botId)?.email ?? '';
  };

  await t.test('POST /bots errors come with the public API texts', async (t) => {
    const guestCredentials = await createMember(owner, 'Guest');
    await owner.call('PATCH', `/users/${guestCredentials.id}`, { role: 600 });
    await creator.post('/bots', { full_name: 'Taken bot', short_name: 'taken' });
    const cases: [string, ApiClient, Record<string, string | number | object>, Record<string, unknown>][] = [
      [
        'a guest',
        owner.as(guestCredentials),
        { full_name: 'G bot', short_name: 'gbot' },
        { msg: 'Not allowed for guest users', code: 'BAD_REQUEST' },
      ],
      [
        'no full_name',
        creator,
        { short_name: 'x' },
        { msg: "Missing 'full_name' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'full_name' },
      ],
      ['a blank short name', creator, { full_name: 'Blank bot', short_name: '  ' }, { msg: 'Bad name or username', code: 'BAD_REQUEST' }],
      [
        'a short name with spaces',
        creator,
        { full_name: 'Spaced bot', short_name: 'a b' },
        { msg: 'Bad name or username', code: 'BAD_REQUEST' },
      ],
      [
        'a taken short name',
        creator,
        { full_name: 'Other bot', short_name: 'taken' },
        { msg: 'Username already in use', code: 'BAD_REQUEST' },
      ],
      [
        'a taken full name',
        creator,
        { full_name: 'Taken bot', short_name: 'fresh' },
        { msg: 'Name is already in use!', code: 'BAD_REQUEST' },
      ],
      [
        'an unknown bot type',
        creator,
        { full_name: 'Typed bot', short_name: 'typed', bot_type: 9 },
        { msg: 'Invalid bot type', code: 'BAD_REQUEST' },
      ],
      [
        'an unknown interface',
        creator,
        { full_name: 'Hook bot', short_name: 'hook', bot_type: 3, interface_type: 7, payload_url: '"https://example.com/hook"' },
        { msg: 'Invalid interface type', code: 'BAD_REQUEST' },
      ],
      [
        'a payload_url that is no URL',
        creator,
        { full_name: 'Hook bot', short_name: 'hook', bot_type: 3, payload_url: '"not a url"' },
        { msg: 'payload_url is not a URL', code: 'REQUEST_VARIABLE_INVALID', var_name: 'payload_url' },
      ],
      [
        'an unknown embedded bot',
        creator,
        { full_name: 'Embedded bot', short_name: 'emb', bot_type: 4, service_name: 'nope' },
        { msg: 'Invalid embedded bot name.', code: 'BAD_REQUEST' },
      ],
      [
        'config_data that is not an object of strings',
        creator,
        { full_name: 'Conf bot', short_name: 'conf', config_data: { key: 1 } },
        { code: 'REQUEST_VARIABLE_INVALID', var_name: 'config_data' },
      ],
      [
        'an unknown default stream',
        creator,
        { full_name: 'Stream bot', short_name: 'streamy', default_sending_stream: 'nowhere' },
        { msg: "Invalid stream name 'nowhere'", code: 'BAD_REQUEST' },
      ],
    ];
    for (const [name, client, params, expected] of cases) {
      const res = await client.post('/bots', params);
      t.equal(res.status, 400, `${name}: status`);
      hasFields(t, res.body, { result: 'error', ...expected }, name);
    }
  });

  await t.test('bot_creation_policy: 2 leaves non-generic bots, 3 every bot to administrators', async (t) => {
    // The org slice writes the setting through PATCH /realm; here it is written as that row stores it.
    await updateRealm(owner, { bot_creation_policy: 2 });
    const refused = await creator.post('/bots', { full_name: 'Hook two', short_name: 'hooktwo', bot_type: 2 });
    t.strictSame(
      [refused.status, refused.body['msg'], refused.body['code']],
      [400, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'],
      'policy 2: a member makes no webhook bot',
    );
    t.equal(
      (await creator.post('/bots', { full_name: 'Generic two', short_name: 'generictwo' })).status,
      200,
      'policy 2: a generic one is fine',
    );
    t.equal(
      (await owner.post('/bots', { full_name: 'Admin hook', short_name: 'adminhook', bot_type: 2 })).status,
      200,
      'policy 2: administrators make any',
    );
    await updateRealm(owner, { bot_creation_policy: 3 });
    hasFields(
      t,
      (await creator.post('/bots', { full_name: 'Generic three', short_name: 'genericthree' })).body,
      { msg: 'Must be an organization administrator' },
      'policy 3: members make none',
    );
    t.equal(
      (await owner.post('/bots', { full_name: 'Admin three', short_name: 'adminthree' })).status,
      200,
      'policy 3: administrators still do',
    );
    await updateRealm(owner, { bot_creation_policy: 1 });
  });

  await t.test('a generic bot: response, events to its administrators and everyone, its own key', async (t) => {
    const observerCredentials = await createMember(owner, 'Observer');
    const observer = await EventReader.register(owner.as(observerCredentials), { event_types: ['realm_user', 'realm_bot'] });
    const creatorEvents = await EventReader.register(creator, { event_types: ['realm_bot'] });
    const ownerEvents = await EventReader.register(owner, { event_types: ['realm_bot'] });
    const res = await creator.post('/bots', { full_name: 'Deploy bot', short_name: 'deploy', default_sending_stream: 'general' });
    t.equal(res.status, 200, res.text);
    const botId = res.body['user_id'] as number;
    hasFields(t, res.body, {
      result: 'success',
      user_id: Number,
      api_key: /^[A-Za-z0-9]{32}$/,
      avatar_url: /^https:\/\//,
      default_sending_stream: 'general',
      default_events_register_stream: null,
      default_all_public_streams: false,
    });
    const email = await botEmailOf(creator, botId);
    t.equal(email, `deploy-bot@${email.split('@')[1] ?? ''}`, 'the email is <short_name>-bot@<realm host>');
    const observed = await observer.nextPayloads();
    hasFields(
      t,
      observed,
      [
        {
          type: 'realm_user',
          op: 'add',
          person: { user_id: botId, is_bot: true, bot_type: 1, bot_owner_id: creatorCredentials.id, delivery_email: email },
        },
      ],
      'everyone hears realm_user add, not realm_bot',
    );
    const expectedBot = {
      email,
      user_id: botId,
      full_name: 'Deploy bot',
      bot_type: 1,
      is_active: true,
      api_key: res.body['api_key'],
      default_sending_stream: 'general',
      default_events_register_stream: null,
      default_all_public_streams: false,
      avatar_url: res.body['avatar_url'],
      services: [],
      owner_id: creatorCredentials.id,
    };
    t.strictSame(
      await creatorEvents.nextPayloads(),
      [{ type: 'realm_bot', op: 'add', bot: expectedBot }],
      'the owner hears realm_bot add with the key',
    );
    t.strictSame(await ownerEvents.nextPayloads(), [{ type: 'realm_bot', op: 'add', bot: expectedBot }], 'so do administrators');
    const bot = owner.as({ email, key: res.body['api_key'] as string });
    const me = await bot.get('/users/me');
    hasFields(t, me.body, { user_id: botId, is_bot: true, delivery_email: email }, 'the bot authenticates with its own email and key');
    t.notOk('profile_data' in me.body, 'bots have no profile_data');
    hasFields(
      t,
      (await bot.post('/bots', { full_name: 'Bot bot', short_name: 'botbot' })).body,
      { msg: 'This endpoint does not accept bot requests.' },
      'bots make no bots',
    );

    const listed = await creator.get('/bots');
    t.strictSame(
      (listed.body['bots'] as { username: string }[]).filter((b) => b.username === email),
      [
        {
          username: email,
          full_name: 'Deploy bot',
          api_key: res.body['api_key'],
          avatar_url: res.body['avatar_url'],
          default_sending_stream: 'general',
          default_events_register_stream: null,
          default_all_public_streams: false,
        },
      ],
      'GET /bots lists the caller’s bots',
    );
    const ownerBots = (await owner.get('/bots')).body['bots'] as { username: string }[];
    t.notOk(
      ownerBots.some((b) => b.username === email),
      'not another user’s, even for an administrator, as the public server lists them',
    );
  });

  await t.test('outgoing webhook and embedded bots carry their service', async (t) => {
    const hook = await creator.post('/bots', {
      full_name: 'Hook bot',
      short_name: 'hooky',
      bot_type: 3,
      payload_url: '"https://example.com/hook"',
      interface_type: 2,
    });
    t.equal(hook.status, 200, hook.text);
    const embedded = await creator.post('/bots', {
      full_name: 'Convert bot',
      short_name: 'convert',
      bot_type: 4,
      service_name: 'converter',
      config_data: { unit: 'metric' },
    });
    t.equal(embedded.status, 200, embedded.text);
    const bots = (await creator.post('/register', { fetch_event_types: ['realm_bot'] })).body['realm_bots'] as {
      user_id: number;
      services: Record<string, unknown>[];
    }[];
    hasFields(t, bots.find((b) => b.user_id === hook.body['user_id'])?.services, [
      { base_url: 'https://example.com/hook', interface: 2, token: /^[A-Za-z0-9]{32}$/ },
    ]);
    t.strictSame(bots.find((b) => b.user_id === embedded.body['user_id'])?.services, [
      { service_name: 'converter', config_data: { unit: 'metric' } },
    ]);
  });

  await t.test('PATCH /bots/{bot_id}', async (t) => {
    const created = await creator.post('/bots', { full_name: 'Patch bot', short_name: 'patchy' });
    const botId = created.body['user_id'] as number;
    const strangerCredentials = await createMember(owner, 'Stranger');
    const errorsCases: [string, ApiClient, string, Record<string, string | number>, string][] = [
      ['an unknown bot', creator, '/bots/99999', { full_name: 'X' }, 'No such bot'],
      ['a person is no bot', creator, `/bots/${strangerCredentials.id}`, { full_name: 'X' }, 'No such bot'],
      ['someone else’s bot', owner.as(strangerCredentials), `/bots/${botId}`, { full_name: 'X' }, 'Insufficient permission'],
      ['an unknown owner', creator, `/bots/${botId}`, { bot_owner_id: 99999 }, 'Failed to change owner, no such user'],
      ['a bot as owner', creator, `/bots/${botId}`, { bot_owner_id: botId }, "Failed to change owner, bots can't own other bots"],
      ['a taken name', creator, `/bots/${botId}`, { full_name: 'Deploy bot' }, 'Name is already in use!'],
      ['a member may not make the bot an administrator', creator, `/bots/${botId}`, { role: 200 }, 'Must be an organization administrator'],
    ];
    for (const [name, client, path, params, msg] of errorsCases) {
      const res = await client.call('PATCH', path, params);
      t.strictSame(
        [res.status, res.body['msg'], res.body['code']],
        [400, msg, msg.startsWith('Must') ? 'UNAUTHORIZED_PRINCIPAL' : 'BAD_REQUEST'],
        name,
      );
    }
    const creatorEvents = await EventReader.register(creator, { event_types: ['realm_bot', 'realm_user'] });
    const strangerEvents = await EventReader.register(owner.as(strangerCredentials), { event_types: ['realm_bot', 'realm_user'] });
    const renamed = await creator.call('PATCH', `/bots/${botId}`, { full_name: 'Patched bot', default_events_register_stream: 'general' });
    t.equal(renamed.status, 200, renamed.text);
    hasFields(t, renamed.body, {
      full_name: 'Patched bot',
      default_events_register_stream: 'general',
      default_sending_stream: null,
      bot_owner: creatorCredentials.email,
    });
    t.strictSame(
      await creatorEvents.nextPayloads(),
      [
        { type: 'realm_user', op: 'update', person: { user_id: botId, full_name: 'Patched bot' } },
        { type: 'realm_bot', op: 'update', bot: { user_id: botId, full_name: 'Patched bot' } },
        { type: 'realm_bot', op: 'update', bot: { user_id: botId, default_events_register_stream: 'general' } },
      ],
      'the owner hears the rename and the default stream',
    );
    await strangerEvents.next();
    const moved = await creator.call('PATCH', `/bots/${botId}`, { bot_owner_id: strangerCredentials.id });
    t.equal(moved.status, 200, moved.text);
    const lost = await creatorEvents.nextPayloads();
    t.strictSame(
      lost,
      [
        { type: 'realm_bot', op: 'delete', bot: { user_id: botId } },
        { type: 'realm_user', op: 'update', person: { user_id: botId, bot_owner_id: strangerCredentials.id } },
      ],
      'the previous owner loses the bot',
    );
    const gained = await strangerEvents.nextPayloads();
    hasFields(
      t,
      gained,
      [
        { type: 'realm_bot', op: 'add', bot: { user_id: botId, owner_id: strangerCredentials.id } },
        { type: 'realm_bot', op: 'update', bot: { user_id: botId, owner_id: strangerCredentials.id } },
        { type: 'realm_user', op: 'update', person: { user_id: botId, bot_owner_id: strangerCredentials.id } },
      ],
      'the new owner gains it',
    );
    t.equal(
      (await creator.call('PATCH', `/bots/${botId}`, { full_name: 'Mine again' })).body['msg'],
      'Insufficient permission',
      'the previous owner may no longer edit it',
    );
  });

  await t.test('DELETE /bots/{bot_id} deactivates the bot', async (t) => {
    const created = await creator.post('/bots', { full_name: 'Short-lived bot', short_name: 'shortlived' });
    const botId = created.body['user_id'] as number;
    const email = await botEmailOf(creator, botId);
    const creatorEvents = await EventReader.register(creator, { event_types: ['realm_bot', 'realm_user'] });
    const res = await creator.call('DELETE', `/bots/${botId}`);
    t.equal(res.status, 200, res.text);
    t.strictSame(await creatorEvents.nextPayloads(), [
      { type: 'realm_user', op: 'remove', person: { user_id: botId, full_name: 'Short-lived bot' } },
      { type: 'realm_bot', op: 'remove', bot: { user_id: botId, full_name: 'Short-lived bot' } },
    ]);
    const refused = await owner.as({ email, key: created.body['api_key'] as string }).get('/users/me');
    t.strictSame([refused.status, refused.body['code']], [401, 'USER_DEACTIVATED'], 'its key stops working');
    t.equal((await creator.call('DELETE', `/bots/${botId}`)).body['msg'], 'User is deactivated', 'not twice');
    t.notOk(
      ((await creator.get('/bots')).body['bots'] as { username: string }[]).some((b) => b.username === email),
      'GET /bots no longer lists it',
    );

    const namesake = await creator.post('/bots', { full_name: 'Short-lived bot', short_name: 'namesake' });
    t.equal(namesake.status, 200, 'the name is free once the bot is deactivated');
    t.strictSame(
      (await owner.post(`/users/${botId}/reactivate`)).body,
      { result: 'error', msg: 'Name is already in use!', code: 'BAD_REQUEST' },
      'so the old bot cannot come back under it',
    );
    await creator.call('DELETE', `/bots/${String(namesake.body['user_id'])}`);
    await creatorEvents.next();
    t.equal((await owner.post(`/users/${botId}/reactivate`)).status, 200, 'once the name is free again it can');
    hasFields(
      t,
      await creatorEvents.nextPayloads(),
      [
        { type: 'realm_user', op: 'add', person: { user_id: botId, is_bot: true } },
        { type: 'realm_bot', op: 'add', bot: { user_id: botId, is_active: true } },
      ],
      'its owner hears realm_user add and realm_bot add',
    );
    t.equal((await owner.as({ email, key: created.body['api_key'] as string }).get('/users/me')).status, 200, 'its key works again');
  });

  await t.test('GET /streams include_owner_subscribed: a bot sees the streams its owner is in', async (t) => {
    await creator.post('/users/me/subscriptions', { subscriptions: [{ name: 'secret lab', description: 'x' }], invite_only: true });
    const created = await creator.post('/bots', { full_name: 'Lab bot', short_name: 'labbot' });
    const bot = owner.as({ email: await botEmailOf(creator, created.body['user_id'] as number), key: created.body['api_key'] as string });
    const names = async (params: Record<string, boolean>) =>
      ((await bot.get('/streams', params)).body['streams'] as { name: string }[]).map((s) => s.name).sort();
    t.notOk((await names({})).includes('secret lab'), 'without the parameter the private stream is not listed');
    t.ok((await names({ include_owner_subscribed: true })).includes('secret lab'), 'with it, the owner’s private stream is');
    const person = await creator.get('/streams', { include_owner_subscribed: true, include_subscribed: false, include_public: false });
    t.strictSame(person.body['streams'], [], 'for a person it adds nothing');
  });
});
