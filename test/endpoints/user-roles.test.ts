import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { responseViolations } from '../helpers/openapi';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

// PATCH /users/{user_id} (openapi update-user): full_name, role, and the system groups and
// stream visibility that follow a role.

const ROLE_NAMES: Record<number, string> = { 100: 'owner', 200: 'administrator', 300: 'moderator', 400: 'member', 600: 'guest' };
const ROLES = [100, 200, 300, 400, 600];

t.test('PATCH /users/{user_id}', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);

  const setRole = async (userId: number, role: number) => {
    const res = await owner.call('PATCH', `/users/${userId}`, { role });
    if (res.status !== 200) throw new Error(res.text);
  };
  const memberWithRole = async (name: string, role: number) => {
    const created = await createMember(owner, name);
    if (role !== 400) await setRole(created.id, role);
    return created;
  };
  const roleOf = async (userId: number): Promise<number> => {
    const state = await owner.post('/register', { fetch_event_types: ['realm_user'] });
    const person = (state.body['realm_users'] as { user_id: number; role: number }[]).find((p) => p.user_id === userId);
    return person?.role ?? -1;
  };

  await t.test('errors come with the public API texts', async (t) => {
    const member = owner.as(await createMember(owner, 'Plain'));
    const target = await createMember(owner, 'Target');
    const cases: [string, ApiClient, string, Record<string, string | number>, number, Record<string, unknown>][] = [
      [
        'a member may not change anyone',
        member,
        `/users/${target.id}`,
        { full_name: 'X' },
        400,
        { msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' },
      ],
      ['an unknown user', owner, '/users/99999', { role: 400 }, 400, { msg: 'No such user', code: 'BAD_REQUEST' }],
      ['the notification bot is no user of the API', owner, '/users/2', { role: 400 }, 400, { msg: 'No such user', code: 'BAD_REQUEST' }],
      ['a role that does not exist', owner, `/users/${target.id}`, { role: 500 }, 400, { msg: 'Invalid role', code: 'BAD_REQUEST' }],
      [
        'a role that is not an integer',
        owner,
        `/users/${target.id}`,
        { role: 'admin' },
        400,
        { msg: 'Argument "role" is not valid JSON.', code: 'BAD_REQUEST' },
      ],
      [
        'a name too long',
        owner,
        `/users/${target.id}`,
        { full_name: 'n'.repeat(101) },
        400,
        { msg: 'Name too long!', code: 'BAD_REQUEST' },
      ],
      // A path ID is digits only: anything else makes a URL of no route, as on the public server.
      ['a user id that is not a number', owner, '/users/abc', { role: 400 }, 404, { msg: 'Not found', code: 'BAD_REQUEST' }],
      [
        'the only owner cannot stop being one',
        owner,
        '/users/1',
        { role: 200 },
        400,
        {
          msg: 'The owner permission cannot be removed from the only organization owner.',
          code: 'BAD_REQUEST',
        },
      ],
    ];
    for (const [name, client, path, params, status, expected] of cases) {
      const res = await client.call('PATCH', path, params);
      t.equal(res.status, status, `${name}: status`);
      hasFields(t, res.body, { result: 'error', ...expected }, name);
    }
    t.equal(await roleOf(1), 100, 'the owner is still an owner');
  });

  await t.test('who may change which role: owner, administrator, moderator, member, guest × target × new role', async (t) => {
    // Each actor and one target per role; a second owner so that owners may be demoted.
    const actors = new Map<number, ApiClient>();
    actors.set(100, owner);
    for (const role of [200, 300, 400, 600]) actors.set(role, owner.as(await memberWithRole(`Actor${role}`, role)));
    const targets = new Map<number, number>();
    for (const role of ROLES) targets.set(role, (await memberWithRole(`Target${role}`, role)).id);
    for (const actorRole of ROLES) {
      for (const targetRole of ROLES) {
        for (const newRole of ROLES) {
          const targetId = targets.get(targetRole) as number;
          await setRole(targetId, targetRole);
          const res = await (actors.get(actorRole) as ApiClient).call('PATCH', `/users/${targetId}`, { role: newRole });
          const label = `${ROLE_NAMES[actorRole]} makes a ${ROLE_NAMES[targetRole]} ${ROLE_NAMES[newRole]}`;
          let expected: string | null = null;
          if (actorRole > 200) expected = 'Must be an organization administrator';
          else if (targetRole !== newRole && (newRole === 100 || targetRole === 100) && actorRole !== 100)
            expected = 'Must be an organization owner';
          if (expected === null) {
            t.equal(res.status, 200, `${label}: allowed`);
            t.equal(await roleOf(targetId), newRole, `${label}: the role changed`);
          } else {
            t.strictSame([res.status, res.body['msg'], res.body['code']], [400, expected, 'UNAUTHORIZED_PRINCIPAL'], `${label}: refused`);
            t.equal(await roleOf(targetId), targetRole, `${label}: the role stayed`);
          }
        }
      }
    }
  });

  await t.test('with two owners, one may step down, and then the other is the last', async (t) => {
    const second = await memberWithRole('Second owner', 100);
    const secondClient = owner.as(second);
    // Other owners of the previous test are still owners: demote them first.
    const state = await owner.post('/register', { fetch_event_types: ['realm_user'] });
    for (const person of state.body['realm_users'] as { user_id: number; role: number; is_bot: boolean }[]) {
      if (person.role === 100 && person.user_id !== 1 && person.user_id !== second.id && !person.is_bot) await setRole(person.user_id, 400);
    }
    const res = await secondClient.call('PATCH', '/users/1', { role: 200 });
    t.equal(res.status, 200, res.text);
    t.strictSame(responseViolations('patch', '/users/{user_id}', res.body), [], 'the success body conforms to the reference');
    const again = await owner.call('PATCH', `/users/${second.id}`, { role: 400 });
    hasFields(t, again.body, { msg: 'Must be an organization owner' }, 'the former owner is an administrator now');
    const last = await secondClient.call('PATCH', `/users/${second.id}`, { role: 200 });
    hasFields(t, last.body, { msg: 'The owner permission cannot be removed from the only organization owner.' }, 'the last owner stays');
    t.equal((await secondClient.call('PATCH', '/users/1', { role: 100 })).status, 200, 'restored');
  });

  await t.test('a role change moves the user between the system groups and changes the streams they see', async (t) => {
    const target = await createMember(owner, 'Demoted');
    const targetClient = owner.as(target);
    await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'plaza' }] });
    const groups = (await owner.post('/register', { fetch_event_types: ['realm_user_groups'] })).body['realm_user_groups'] as {
      id: number;
      name: string;
    }[];
    const groupId = (name: string) => groups.find((g) => g.name === name)?.id;
    const own = await EventReader.register(targetClient, { event_types: ['realm_user', 'user_group', 'stream'] });
    const observer = await EventReader.register(owner, { event_types: ['realm_user', 'user_group'] });
    t.ok(
      (own.state['streams'] as { name: string }[]).some((s) => s.name === 'plaza'),
      'a member sees the public stream plaza',
    );
    const res = await owner.call('PATCH', `/users/${target.id}`, { role: 600 });
    t.equal(res.status, 200, res.text);
    const expectedPeople = [
      { type: 'realm_user', op: 'update', person: { user_id: target.id, role: 600 } },
      { type: 'user_group', op: 'remove_members', group_id: groupId('@role:members'), user_ids: [target.id] },
      { type: 'user_group', op: 'add_members', group_id: groupId('@role:everyone'), user_ids: [target.id] },
      // With the default waiting period of 0 days the member was a full member.
      { type: 'user_group', op: 'remove_members', group_id: groupId('@role:fullmembers'), user_ids: [target.id] },
    ];
    t.strictSame(await observer.nextPayloads(), expectedPeople, 'everyone hears the role and the group changes');
    const ownEvents = await own.nextPayloads();
    t.strictSame(ownEvents.slice(0, expectedPeople.length), expectedPeople, 'the user too');
    const deleted = ownEvents.slice(expectedPeople.length);
    t.equal(deleted.length, 1, 'then one stream event');
    hasFields(t, deleted[0], { type: 'stream', op: 'delete' }, 'the public streams a guest may not see go away');
    const names = ((deleted[0]?.['streams'] as { name: string }[]) ?? []).map((s) => s.name);
    t.ok(names.includes('plaza'), 'plaza among them');
    t.notOk(names.includes('general'), 'general stays: the user is subscribed');
    const back = await owner.call('PATCH', `/users/${target.id}`, { role: 400 });
    t.equal(back.status, 200);
    const restored = await own.nextPayloads();
    hasFields(t, restored.at(-1), { type: 'stream', op: 'create' }, 'promoted back, the user sees them again');
    t.ok(
      ((restored.at(-1)?.['streams'] as { name: string }[]) ?? []).some((s) => s.name === 'plaza'),
      'plaza is back',
    );
    const members = await owner.post('/register', { fetch_event_types: ['realm_user_groups'] });
    const membersGroup = (members.body['realm_user_groups'] as { name: string; members: number[] }[]).find(
      (g) => g.name === '@role:members',
    );
    t.ok(membersGroup?.members.includes(target.id), 'the register groups agree');
  });

  await t.test('a bot’s role: set through either endpoint, owners only for the owner role, and bots never count as owners', async (t) => {
    const adminCredentials = await memberWithRole('Bot admin', 200);
    const admin = owner.as(adminCredentials);
    const bot = await owner.post('/bots', { full_name: 'Role bot', short_name: 'rolebot' });
    const botId = bot.body['user_id'] as number;
    hasFields(
      t,
      (await admin.call('PATCH', `/bots/${botId}`, { role: 100 })).body,
      { msg: 'Must be an organization owner', code: 'UNAUTHORIZED_PRINCIPAL' },
      'an administrator may not make a bot an owner',
    );
    t.equal((await admin.call('PATCH', `/bots/${botId}`, { role: 300 })).status, 200, 'an administrator may make it a moderator');
    t.equal(await roleOf(botId), 300);
    t.equal(
      (await owner.call('PATCH', `/users/${botId}`, { role: 100 })).status,
      200,
      'an owner may make it an owner through PATCH /users',
    );
    t.equal(await roleOf(botId), 100);
    // Demote every other human owner left by earlier tests, so that user 1 is the only human one.
    const state = await owner.post('/register', { fetch_event_types: ['realm_user'] });
    for (const person of state.body['realm_users'] as { user_id: number; role: number; is_bot: boolean }[]) {
      if (person.role === 100 && person.user_id !== 1 && !person.is_bot) await setRole(person.user_id, 400);
    }
    hasFields(
      t,
      (await owner.call('PATCH', '/users/1', { role: 200 })).body,
      { msg: 'The owner permission cannot be removed from the only organization owner.' },
      'an owner bot does not make the human owner removable',
    );
    t.equal((await owner.call('PATCH', `/bots/${botId}`, { role: 400 })).status, 200, 'the bot owner is never the last owner');
  });

  await t.test('profile_data is validated like PATCH /users/me/profile_data (test/endpoints/profile-fields)', async (t) => {
    const target = await createMember(owner, 'Profiled');
    const res = await owner.call('PATCH', `/users/${target.id}`, { profile_data: [{ id: 1, value: 'x' }] });
    t.strictSame(res.body, { result: 'error', msg: 'Field id 1 not found.', code: 'BAD_REQUEST' }, 'no field has ID 1 in this realm');
  });

  await t.test('full_name renames: everyone hears realm_user update; blank names are ignored', async (t) => {
    const target = await createMember(owner, 'Renamed');
    const observer = await EventReader.register(owner, { event_types: ['realm_user'] });
    t.equal((await owner.call('PATCH', `/users/${target.id}`, { full_name: '  Newly Named ' })).status, 200);
    t.strictSame(await observer.nextPayloads(), [
      { type: 'realm_user', op: 'update', person: { user_id: target.id, full_name: 'Newly Named' } },
    ]);
    t.equal((await owner.call('PATCH', `/users/${target.id}`, { full_name: '   ' })).status, 200, 'a blank name is no change');
    t.strictSame(await observer.nextPayloads(), [], 'and no event');
  });
});
