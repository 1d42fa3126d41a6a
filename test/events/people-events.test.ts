import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { emailConfirmationPath, onePersonOfEachRole, hiddenAddress, MAX_ROLE_SEEING, type Person } from '../helpers/people';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

type Payload = Record<string, unknown>;

const SETTINGS_OBJECT = { user_settings_object: true };

t.test('people events', async (t) => {
  const server = await startServer({ env: { LOG_LEVEL: 'info' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const viewers: Record<string, Person> = await onePersonOfEachRole(api, server.owner);

  t.test('a setting change: user_settings to every queue, the legacy twin only without user_settings_object', async (t) => {
    const alice = await createMember(api, 'Alice');
    const modern = await EventReader.register(api.as(alice), { client_capabilities: SETTINGS_OBJECT });
    const legacy = await EventReader.register(api.as(alice));
    const other = await EventReader.register(api);
    await api.as(alice).call('PATCH', '/settings', { default_language: 'fr', enable_sounds: false, dense_mode: true });
    t.strictSame(
      await modern.nextPayloads(),
      [
        { type: 'user_settings', op: 'update', property: 'default_language', value: 'fr', language_name: 'Français' },
        { type: 'user_settings', op: 'update', property: 'enable_sounds', value: false },
      ],
      'dense_mode was already true: no event',
    );
    t.strictSame(await legacy.nextPayloads(), [
      { type: 'user_settings', op: 'update', property: 'default_language', value: 'fr', language_name: 'Français' },
      { type: 'update_display_settings', user: alice.email, setting_name: 'default_language', setting: 'fr', language_name: 'Français' },
      { type: 'user_settings', op: 'update', property: 'enable_sounds', value: false },
      { type: 'update_global_notifications', user: alice.email, notification_name: 'enable_sounds', setting: false },
    ]);
    t.strictSame(await other.nextPayloads(), [], "personal settings are nobody else's business");
  });

  t.test('a time zone change: user_settings for the user, realm_user for everyone', async (t) => {
    const bob = await createMember(api, 'Bob');
    const own = await EventReader.register(api.as(bob), { client_capabilities: SETTINGS_OBJECT });
    const other = await EventReader.register(api);
    await api.as(bob).call('PATCH', '/settings', { timezone: 'America/Denver' });
    const person = { type: 'realm_user', op: 'update', person: { user_id: bob.id, email: bob.email, timezone: 'America/Denver' } };
    t.strictSame(await own.nextPayloads(), [
      { type: 'user_settings', op: 'update', property: 'timezone', value: 'America/Denver' },
      person,
    ]);
    t.strictSame(await other.nextPayloads(), [person]);
  });

  t.test('a rename: realm_user full_name to everyone', async (t) => {
    const carol = await createMember(api, 'Carol');
    const readers = await Promise.all(Object.values(viewers).map((v) => EventReader.register(api.as(v))));
    await api.as(carol).call('PATCH', '/settings', { full_name: 'Caroline' });
    for (const reader of readers) {
      t.strictSame(await reader.nextPayloads(), [
        { type: 'realm_user', op: 'update', person: { user_id: carol.id, full_name: 'Caroline' } },
      ]);
    }
  });

  t.test('visibility changes: new_email to everyone, delivery_email to each viewer whose view changed', async (t) => {
    const dora = await createMember(api, 'Dora');
    let previous = 1;
    for (const visibility of [2, 3, 5, 4, 1]) {
      const readers = Object.fromEntries(
        await Promise.all(
          Object.entries(viewers).map(
            async ([name, v]) => [name, await EventReader.register(api.as(v), { event_types: ['realm_user'] })] as const,
          ),
        ),
      );
      const res = await api.as(dora).call('PATCH', '/settings', { email_address_visibility: visibility });
      t.equal(res.status, 200);
      const apiEmailChanged = (previous === 1) !== (visibility === 1);
      for (const [name, viewer] of Object.entries(viewers)) {
        const saw = viewer.role <= (MAX_ROLE_SEEING[previous] as number);
        const sees = viewer.role <= (MAX_ROLE_SEEING[visibility] as number);
        const persons = (await (readers[name] as EventReader).nextPayloads()).map((e) => e['person'] as Payload);
        const label = `${previous} -> ${visibility}, ${name}`;
        const expected: Payload[] = [];
        if (apiEmailChanged) expected.push({ user_id: dora.id, new_email: visibility === 1 ? dora.email : hiddenAddress(dora.id) });
        if (saw !== sees) expected.push({ user_id: dora.id, delivery_email: sees ? dora.email : null });
        t.strictSame(
          persons.filter((p) => !('avatar_source' in p)),
          expected,
          label,
        );
        t.equal(
          persons.some((p) => 'avatar_source' in p),
          saw !== sees,
          `${label}: an avatar update exactly when the view changed`,
        );
      }
      previous = visibility;
    }
  });

  t.test('a new user: realm_user add under each realm default, the real email only to the roles it admits', async (t) => {
    const setDefault = async (visibility: number) => {
      const res = await api.call('PATCH', '/realm/user_settings_defaults', { email_address_visibility: visibility });
      if (res.status !== 200) throw new Error(`default email_address_visibility ${visibility}: ${res.text}`);
    };
    t.teardown(() => setDefault(1));
    for (const visibility of [1, 2, 3, 4, 5]) {
      await setDefault(visibility);
      const readers = Object.fromEntries(
        await Promise.all(
          Object.entries(viewers).map(
            async ([name, v]) => [name, await EventReader.register(api.as(v), { event_types: ['realm_user'] })] as const,
          ),
        ),
      );
      const email = `new${visibility}-${process.pid}@example.com`;
      const created = await api.post('/users', { email, password: 'new-user-secret', full_name: `New ${visibility}` });
      const id = Number(created.body['user_id']);
      const apiEmail = visibility === 1 ? email : hiddenAddress(id);
      for (const [name, viewer] of Object.entries(viewers)) {
        const sees = viewer.role <= (MAX_ROLE_SEEING[visibility] as number);
        const adds = (await (readers[name] as EventReader).nextPayloads()).filter((e) => e['op'] === 'add');
        t.equal(adds.length, 1, `default ${visibility}, ${name}: one add`);
        hasFields(
          t,
          adds[0]?.['person'],
          { user_id: id, email: apiEmail, delivery_email: sees ? email : null },
          `default ${visibility}, ${name}`,
        );
        if (!sees)
          t.match((adds[0]?.['person'] as Payload)['avatar_url'], /^https:\/\//, `default ${visibility}, ${name}: a URL, not computable`);
      }
      const key = String((await api.as(null).post('/fetch_api_key', { username: email, password: 'new-user-secret' })).body['api_key']);
      const state = (await api.as({ email: apiEmail, key }).post('/register', { fetch_event_types: ['user_settings'] })).body;
      t.equal(
        (state['user_settings'] as Payload)['email_address_visibility'],
        visibility,
        `default ${visibility}: the new user starts with it`,
      );
    }
  });

  t.test('a confirmed email change: new_email to everyone, delivery_email to those who see it', async (t) => {
    const fay = await createMember(api, 'Fay');
    await api.as(fay).call('PATCH', '/settings', { email_address_visibility: 2 });
    const guest = await EventReader.register(api.as(viewers['guest'] as Person), { event_types: ['realm_user'] });
    const member = await EventReader.register(api.as(viewers['member'] as Person), { event_types: ['realm_user'] });
    await api.as(fay).call('PATCH', '/settings', { email: `fay-new-${process.pid}@example.org` });
    t.strictSame(await member.nextPayloads(), [], 'nothing before the confirmation');
    const confirmed = await api.as(null).get(await emailConfirmationPath(server, fay.id));
    t.equal(confirmed.status, 200, confirmed.text);
    const forMember = (await member.nextPayloads()).map((e) => e['person']);
    t.strictSame(
      forMember.filter((p) => !('avatar_source' in (p as Payload))),
      [{ user_id: fay.id, delivery_email: `fay-new-${process.pid}@example.org` }],
    );
    const forGuest = (await guest.nextPayloads()).map((e) => e['person'] as Payload);
    t.strictSame(
      forGuest.filter((p) => !('avatar_source' in p)),
      [],
      'the API email stays the hidden address; the guest sees no email',
    );
    t.equal(forGuest.length, 1, 'only the new picture URL');
  });
});
