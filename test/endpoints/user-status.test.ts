import t from 'tap';
import { EventReader } from '../helpers/events';
import { pngUpload, postFiles } from '../helpers/files';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { responseViolations } from '../helpers/openapi';
import { startServer } from '../helpers/server';

// POST /users/me/status, GET /users/{user_id}/status, register's user_status (SPEC User status).

t.test('user status', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const aliceCredentials = await createMember(owner, 'Alice');
  const alice = owner.as(aliceCredentials);
  const bob = owner.as(await createMember(owner, 'Bob'));
  // One active custom emoji and one deactivated, as an administrator makes them.
  for (const name of ['party_parrot', 'old_logo']) {
    const uploaded = await postFiles(server.baseUrl, `/realm/emoji/${name}`, server.owner, pngUpload());
    if (uploaded.status !== 200) throw new Error(`upload ${name}: ${uploaded.status}`);
  }
  const removed = await owner.call('DELETE', '/realm/emoji/old_logo');
  if (removed.status !== 200) throw new Error(`deactivate old_logo: ${removed.text}`);
  const realmEmoji = Object.values((await owner.get('/realm/emoji')).body['emoji'] as Record<string, { id: string; name: string }>);
  const emojiId = (name: string) => String(realmEmoji.find((e) => e.name === name)?.id);
  const parrotId = emojiId('party_parrot');
  const oldLogoId = emojiId('old_logo');

  t.test('errors', async (t) => {
    const cases: [string, Record<string, string | boolean>, string][] = [
      ['no new values', {}, 'Client did not pass any new values.'],
      ['an emoji code alone is not a new value', { emoji_code: '1f600' }, 'Client did not pass any new values.'],
      ['a status text over 60 characters', { status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
      [
        'an emoji code without a name',
        { status_text: 'hi', emoji_code: '1f600' },
        'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
      ],
      [
        'a reaction type without a name',
        { status_text: 'hi', reaction_type: 'unicode_emoji' },
        'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
      ],
      ['an emoji name that does not exist', { emoji_name: 'no_such_emoji' }, "Emoji 'no_such_emoji' does not exist"],
      [
        'an emoji name that does not match its code',
        { emoji_name: 'smile', emoji_code: '1f680', reaction_type: 'unicode_emoji' },
        'Invalid emoji name.',
      ],
      [
        'an unknown custom emoji',
        { emoji_name: 'party_parrot', emoji_code: '9999', reaction_type: 'realm_emoji' },
        'Invalid custom emoji.',
      ],
      [
        'a deactivated custom emoji',
        { emoji_name: 'old_logo', emoji_code: oldLogoId, reaction_type: 'realm_emoji' },
        'This custom emoji has been deactivated.',
      ],
      ['an unknown reaction type', { emoji_name: 'smile', emoji_code: '1f642', reaction_type: 'sticker' }, 'Invalid emoji type.'],
    ];
    for (const [name, params, msg] of cases) {
      await t.test(`${name} is refused`, async (t) => {
        const res = await alice.post('/users/me/status', params);
        t.equal(res.status, 400);
        t.strictSame(res.body, { result: 'error', msg, code: 'BAD_REQUEST' });
      });
    }
    await t.test('the status of an unknown user is refused', async (t) => {
      const res = await alice.get('/users/9999/status');
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
    });
    await t.test('a refused status changes nothing', async (t) => {
      const res = await alice.get(`/users/${aliceCredentials.id}/status`);
      t.strictSame(res.body, { result: 'success', msg: '', status: {} });
    });
  });

  await t.test('setting a text and an emoji by name announces them and register shows them', async (t) => {
    const watcher = await EventReader.register(bob, { event_types: ['user_status'] });
    const res = await alice.post('/users/me/status', { status_text: '  In a meeting  ', emoji_name: 'car' });
    t.equal(res.status, 200, res.text);
    t.strictSame(responseViolations('post', '/users/me/status', res.body), [], 'the body conforms to the reference OpenAPI');
    t.strictSame(await watcher.nextPayloads(), [
      {
        type: 'user_status',
        user_id: aliceCredentials.id,
        status_text: 'In a meeting',
        emoji_name: 'car',
        emoji_code: '1f697',
        reaction_type: 'unicode_emoji',
      },
    ]);
    const expected = { status_text: 'In a meeting', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' };
    t.strictSame((await bob.get(`/users/${aliceCredentials.id}/status`)).body, { result: 'success', msg: '', status: expected });
    const registered = await bob.post('/register', { fetch_event_types: ['user_status'] });
    t.strictSame((registered.body['user_status'] as Record<string, unknown>)[String(aliceCredentials.id)], expected);
  });

  await t.test('60 characters are counted as code points, so 60 emoji fit', async (t) => {
    const res = await alice.post('/users/me/status', { status_text: '🚀'.repeat(60) });
    t.equal(res.status, 200, res.text);
    await alice.post('/users/me/status', { status_text: 'In a meeting' });
  });

  await t.test('only the parameters passed change', async (t) => {
    const watcher = await EventReader.register(bob, { event_types: ['user_status'] });
    await alice.post('/users/me/status', { status_text: 'Lunch' });
    t.strictSame(await watcher.nextPayloads(), [{ type: 'user_status', user_id: aliceCredentials.id, status_text: 'Lunch' }]);
    const status = (await alice.get(`/users/${aliceCredentials.id}/status`)).body['status'];
    t.strictSame(status, { status_text: 'Lunch', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
  });

  await t.test('a custom emoji and a built-in image emoji are accepted', async (t) => {
    const custom = await alice.post('/users/me/status', { emoji_name: 'party_parrot', emoji_code: parrotId, reaction_type: 'realm_emoji' });
    t.equal(custom.status, 200, custom.text);
    t.strictSame((await alice.get(`/users/${aliceCredentials.id}/status`)).body['status'], {
      status_text: 'Lunch',
      emoji_name: 'party_parrot',
      emoji_code: parrotId,
      reaction_type: 'realm_emoji',
    });
    await alice.post('/users/me/status', { emoji_name: 'smile' });
    // A bare name resolves in the realm's namespaces, custom emoji first.
    const byName = await alice.post('/users/me/status', { emoji_name: 'party_parrot' });
    t.equal(byName.status, 200, byName.text);
    const status = (await alice.get(`/users/${aliceCredentials.id}/status`)).body['status'] as Record<string, unknown>;
    t.strictSame([status['emoji_code'], status['reaction_type']], [parrotId, 'realm_emoji']);
  });

  await t.test('an empty text and an empty emoji name clear them', async (t) => {
    const watcher = await EventReader.register(bob, { event_types: ['user_status'] });
    await alice.post('/users/me/status', { status_text: '', emoji_name: '' });
    t.strictSame(await watcher.nextPayloads(), [
      { type: 'user_status', user_id: aliceCredentials.id, status_text: '', emoji_name: '', emoji_code: '', reaction_type: '' },
    ]);
    t.strictSame((await alice.get(`/users/${aliceCredentials.id}/status`)).body['status'], {});
    const registered = await bob.post('/register', { fetch_event_types: ['user_status'] });
    t.notOk(String(aliceCredentials.id) in (registered.body['user_status'] as Record<string, unknown>), 'a cleared status is not listed');
  });

  await t.test('away turns presence_enabled off and back on, with the settings events', async (t) => {
    const own = await EventReader.register(alice, {
      event_types: ['user_status', 'user_settings', 'update_global_notifications'],
      client_capabilities: { user_settings_object: true },
    });
    const legacy = await EventReader.register(alice, {
      event_types: ['user_settings', 'update_global_notifications'],
      client_capabilities: { user_settings_object: false },
    });
    const away = await alice.post('/users/me/status', { away: true });
    t.equal(away.status, 200, away.text);
    t.strictSame(await own.nextPayloads(), [
      { type: 'user_settings', op: 'update', property: 'presence_enabled', value: false },
      { type: 'user_status', user_id: aliceCredentials.id, away: true },
    ]);
    t.strictSame(await legacy.nextPayloads(), [
      { type: 'user_settings', op: 'update', property: 'presence_enabled', value: false },
      { type: 'update_global_notifications', user: aliceCredentials.email, notification_name: 'presence_enabled', setting: false },
    ]);
    const registered = await alice.post('/register', { fetch_event_types: ['user_status', 'user_settings'] });
    t.equal((registered.body['user_settings'] as Record<string, unknown>)['presence_enabled'], false);
    t.strictSame((registered.body['user_status'] as Record<string, unknown>)[String(aliceCredentials.id)], { away: true });

    await alice.post('/users/me/status', { away: false });
    t.strictSame(await own.nextPayloads(), [
      { type: 'user_settings', op: 'update', property: 'presence_enabled', value: true },
      { type: 'user_status', user_id: aliceCredentials.id, away: false },
    ]);
    t.strictSame((await alice.get(`/users/${aliceCredentials.id}/status`)).body['status'], {});
  });

  await t.test('turning presence_enabled off in PATCH /settings shows the user away', async (t) => {
    const watcher = await EventReader.register(bob, { event_types: ['user_status'] });
    await alice.call('PATCH', '/settings', { presence_enabled: false });
    t.strictSame(await watcher.nextPayloads(), [{ type: 'user_status', user_id: aliceCredentials.id, away: true }]);
    t.strictSame((await bob.get(`/users/${aliceCredentials.id}/status`)).body['status'], { away: true });
    await alice.call('PATCH', '/settings', { presence_enabled: true });
    t.strictSame(await watcher.nextPayloads(), [{ type: 'user_status', user_id: aliceCredentials.id, away: false }]);
    t.strictSame((await bob.get(`/users/${aliceCredentials.id}/status`)).body['status'], {});
  });

  await t.test('away repeated announces the status but not an unchanged setting', async (t) => {
    const own = await EventReader.register(alice, { event_types: ['user_status', 'user_settings'] });
    await alice.post('/users/me/status', { away: false });
    t.strictSame(await own.nextPayloads(), [{ type: 'user_status', user_id: aliceCredentials.id, away: false }]);
  });
});
