import t from 'tap';
import { EventReader } from '../helpers/events';
import { createBot, createMember, fetchMessage, updateRealm } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { responseViolations } from '../helpers/openapi';
import { startServer } from '../helpers/server';
import { setRole } from '../helpers/people';

type Group = { id: number; name: string; description: string; members: number[]; direct_subgroup_ids: number[]; is_system_group: boolean };

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

t.test('user groups', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');

  t.test('a nonexistent member is BAD_REQUEST', async (t) => {
    const res = await api.post('/user_groups/create', { name: 'ghosts', description: 'd', members: [4242] });
    t.strictSame(res.body, { result: 'error', msg: 'Invalid user ID: 4242', code: 'BAD_REQUEST' });
  });

  t.test('required parameters', async (t) => {
    const res = await api.post('/user_groups/create', { name: 'x', members: [1] });
    t.equal(res.body['code'], 'REQUEST_VARIABLE_MISSING');
    t.equal(res.body['var_name'], 'description');
  });

  t.test('a group is created once; system names are reserved', async (t) => {
    const res = await api.post('/user_groups/create', { name: 'support', description: 'Helpers', members: [alice.id] });
    t.strictSame(res.body, { result: 'success', msg: '' });
    const again = await api.post('/user_groups/create', { name: 'Support', description: 'x', members: [] });
    t.strictSame(again.body, { result: 'error', msg: "User group 'Support' already exists.", code: 'BAD_REQUEST' });
    const reserved = await api.post('/user_groups/create', { name: '@role:cool', description: 'x', members: [] });
    t.equal(reserved.body['code'], 'BAD_REQUEST');
  });

  t.test('mentioning a group flags its members as mentioned', async (t) => {
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'help', content: '@*support* please look' });
    const forAlice = await fetchMessage(api.as(alice), sent.body['id']);
    t.strictSame(forAlice['flags'], ['mentioned']);
    t.match(String(forAlice['content']), /<span class="user-group-mention" data-user-group-id="\d+">@support<\/span>/);
  });
});

t.test('user group management', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(owner, 'Alice');
  const bob = await createMember(owner, 'Bob');
  const guest = await createMember(owner, 'Guest');
  await setRole(owner, guest.id, 600);
  const ownerId = Number((await owner.get('/users/me')).body['user_id']);

  const groups = async (): Promise<Group[]> => (await owner.get('/user_groups')).body['user_groups'] as Group[];
  const groupNamed = async (name: string): Promise<Group> => {
    const found = (await groups()).find((g) => g.name === name);
    if (!found) throw new Error(`no group ${name}`);
    return found;
  };
  const create = async (name: string, members: number[], client = owner): Promise<number> => {
    const res = await client.post('/user_groups/create', { name, description: `${name} group`, members });
    if (res.status !== 200) throw new Error(res.text);
    return (await groupNamed(name)).id;
  };

  t.test('GET /user_groups lists the system groups with their members and subgroups', async (t) => {
    const res = await owner.get('/user_groups');
    t.equal(res.status, 200);
    t.strictSame(responseViolations('get', '/user_groups', res.body), [], 'the body conforms to the reference OpenAPI');
    const list = res.body['user_groups'] as Group[];
    t.strictSame(
      list.map((g) => g.name),
      [
        '@role:owners',
        '@role:administrators',
        '@role:moderators',
        '@role:fullmembers',
        '@role:members',
        '@role:everyone',
        '@role:internet',
        '@role:nobody',
      ],
    );
    t.ok(list.every((g) => g.is_system_group));
    const byName = new Map(list.map((g) => [g.name, g]));
    t.strictSame(byName.get('@role:owners')?.members, [ownerId]);
    t.strictSame(byName.get('@role:administrators')?.direct_subgroup_ids, [byName.get('@role:owners')?.id]);
    t.ok(byName.get('@role:members')?.members.includes(alice.id));
  });

  t.test('guests and bots may not list groups', async (t) => {
    const res = await owner.as(guest).get('/user_groups');
    t.equal(res.status, 400);
    t.strictSame(res.body, error('Not allowed for guest users'));
    const bot = await createBot(owner, 'grouper');
    t.strictSame((await owner.as(bot).get('/user_groups')).body, error('This endpoint does not accept bot requests.'));
    t.strictSame(
      (await owner.as(bot).post('/user_groups/create', { name: 'bots', description: '', members: [] })).body,
      error('This endpoint does not accept bot requests.'),
    );
  });

  t.test('creating: guests never, and only as the realm policy allows', async (t) => {
    const byGuest = await owner.as(guest).post('/user_groups/create', { name: 'g1', description: 'd', members: [] });
    t.strictSame(byGuest.body, error('Not allowed for guest users'));
    await updateRealm(owner, { user_group_edit_policy: 2 });
    t.teardown(() => updateRealm(owner, { user_group_edit_policy: 1 }));
    const byMember = await owner.as(alice).post('/user_groups/create', { name: 'g1', description: 'd', members: [] });
    t.strictSame(byMember.body, error('Insufficient permission'));
    const byAdmin = await owner.post('/user_groups/create', { name: 'g1', description: 'd', members: [] });
    t.strictSame(byAdmin.body, { result: 'success', msg: '' });
  });

  t.test('an unknown group is "Invalid user group" for every group endpoint', async (t) => {
    t.strictSame((await owner.call('PATCH', '/user_groups/9999', { name: 'x' })).body, error('Invalid user group'));
    t.strictSame((await owner.call('DELETE', '/user_groups/9999')).body, error('Invalid user group'));
    t.strictSame((await owner.post('/user_groups/9999/members', { add: [alice.id] })).body, error('Invalid user group'));
    t.strictSame((await owner.get('/user_groups/9999/members')).body, error('Invalid user group'));
    t.strictSame((await owner.get(`/user_groups/9999/members/${alice.id}`)).body, error('Invalid user group'));
    t.strictSame((await owner.post('/user_groups/9999/subgroups', { add: [1] })).body, error('Invalid user group'));
    t.strictSame((await owner.get('/user_groups/9999/subgroups')).body, error('Invalid user group'));
  });

  t.test('system groups cannot be edited, deleted or have members changed by hand', async (t) => {
    const members = await groupNamed('@role:members');
    t.strictSame((await owner.call('PATCH', `/user_groups/${members.id}`, { name: 'everybody' })).body, error('Insufficient permission'));
    t.strictSame((await owner.call('DELETE', `/user_groups/${members.id}`)).body, error('Insufficient permission'));
    t.strictSame((await owner.post(`/user_groups/${members.id}/members`, { add: [bob.id] })).body, error('Insufficient permission'));
    t.strictSame((await owner.post(`/user_groups/${members.id}/subgroups`, { delete: [1] })).body, error('Insufficient permission'));
  });

  t.test("only administrators, moderators and the group's members may change a group", async (t) => {
    const id = await create('aliceonly', [alice.id]);
    t.strictSame((await owner.as(bob).call('PATCH', `/user_groups/${id}`, { description: 'mine' })).body, error('Insufficient permission'));
    t.strictSame((await owner.as(bob).post(`/user_groups/${id}/members`, { add: [bob.id] })).body, error('Insufficient permission'));
    t.strictSame((await owner.as(alice).call('PATCH', `/user_groups/${id}`, { description: 'ours' })).body, { result: 'success', msg: '' });
    t.strictSame((await owner.as(guest).call('DELETE', `/user_groups/${id}`)).body, error('Not allowed for guest users'));
    const moderator = await createMember(owner, 'Moderator');
    await setRole(owner, moderator.id, 300);
    t.strictSame(
      (await owner.as(moderator).call('PATCH', `/user_groups/${id}`, { description: 'moderated' })).body,
      { result: 'success', msg: '' },
      'moderators manage any group',
    );
  });

  t.test('added and removed members hear it from the notification bot; the actor does not', async (t) => {
    const id = await create('notified', []);
    const bobReader = await EventReader.register(owner.as(bob), { event_types: ['message'] });
    const aliceReader = await EventReader.register(owner.as(alice), { event_types: ['message'] });
    await owner.as(alice).post('/user_groups/create', { name: 'selfmade', description: '', members: [alice.id] });
    await owner.post(`/user_groups/${id}/members`, { add: [alice.id, bob.id] });
    const ownerName = String((await owner.get('/users/me')).body['full_name']);
    const [added] = await bobReader.next();
    t.equal(
      (added?.['message'] as Record<string, unknown>)['content'],
      `@_**${ownerName}|${ownerId}** added you to the group @_*notified*.`,
    );
    await owner.as(alice).post(`/user_groups/${id}/members`, { delete: [alice.id, bob.id] });
    const [removed] = await bobReader.next();
    t.match(
      (removed?.['message'] as Record<string, unknown>)['content'],
      /^@_\*\*Alice \d+\|\d+\*\* removed you from the group @_\*notified\*\.$/,
    );
    const aliceMessages = await aliceReader.next();
    t.equal(aliceMessages.length, 1, 'Alice was told once: added by the owner, not when she removed herself');
  });

  t.test('PATCH: nothing to change, a taken name and a reserved name are refused', async (t) => {
    const id = await create('patchme', []);
    await create('taken', []);
    t.strictSame((await owner.call('PATCH', `/user_groups/${id}`, {})).body, error('No new data supplied'));
    t.strictSame((await owner.call('PATCH', `/user_groups/${id}`, { name: 'Taken' })).body, error("User group 'Taken' already exists."));
    t.strictSame(
      (await owner.call('PATCH', `/user_groups/${id}`, { name: '@role:me' })).body,
      error("User group name cannot start with '@role:'."),
    );
    t.strictSame(
      (await owner.call('PATCH', `/user_groups/${id}`, { name: 'x'.repeat(101) })).body,
      error('User group name cannot exceed 100 characters.'),
    );
  });

  t.test('members: the errors of adding and removing', async (t) => {
    const id = await create('crew', [alice.id]);
    t.strictSame(
      (await owner.post(`/user_groups/${id}/members`, {})).body,
      error('Nothing to do. Specify at least one of "add" or "delete".'),
    );
    t.strictSame(
      (await owner.post(`/user_groups/${id}/members`, { add: [alice.id] })).body,
      error(`User ${alice.id} is already a member of this group`),
    );
    t.strictSame(
      (await owner.post(`/user_groups/${id}/members`, { delete: [bob.id] })).body,
      error(`There is no member '${bob.id}' in this user group`),
    );
    t.strictSame((await owner.post(`/user_groups/${id}/members`, { add: [4242] })).body, error('Invalid user ID: 4242'));
    const notJson = await owner.post(`/user_groups/${id}/members`, { add: 'seven' });
    t.strictSame(notJson.body, error('Argument "add" is not valid JSON.'));
  });

  t.test('subgroups: unknown groups, duplicates, missing ones and cycles are refused', async (t) => {
    const outer = await create('outer', [alice.id]);
    const middle = await create('middle', []);
    const inner = await create('inner', [bob.id]);
    t.strictSame(
      (await owner.post(`/user_groups/${outer}/subgroups`, {})).body,
      error('Nothing to do. Specify at least one of "add" or "delete".'),
    );
    t.strictSame((await owner.post(`/user_groups/${outer}/subgroups`, { add: [7777] })).body, error('Invalid user group ID: 7777'));
    t.strictSame((await owner.post(`/user_groups/${outer}/subgroups`, { add: [middle] })).body, { result: 'success', msg: '' });
    t.strictSame((await owner.post(`/user_groups/${middle}/subgroups`, { add: [inner] })).body, { result: 'success', msg: '' });
    t.strictSame(
      (await owner.post(`/user_groups/${outer}/subgroups`, { add: [middle] })).body,
      error(`User group ${middle} is already a subgroup of this group.`),
    );
    t.strictSame(
      (await owner.post(`/user_groups/${outer}/subgroups`, { delete: [inner] })).body,
      error(`User group ${inner} is not a subgroup of this group.`),
    );
    t.strictSame(
      (await owner.post(`/user_groups/${inner}/subgroups`, { add: [outer] })).body,
      error(`User group ${inner} is already a subgroup of one of the passed subgroups.`),
      'a group cannot contain a group that contains it',
    );
    t.strictSame(
      (await owner.post(`/user_groups/${inner}/subgroups`, { add: [inner] })).body,
      error(`User group ${inner} is already a subgroup of one of the passed subgroups.`),
    );

    t.test('membership and subgroups are recursive unless asked for direct ones only', async (t) => {
      const all = await owner.get(`/user_groups/${outer}/members`);
      t.strictSame(all.body, { result: 'success', msg: '', members: [alice.id, bob.id].sort((a, b) => a - b) });
      t.strictSame(responseViolations('get', '/user_groups/{user_group_id}/members', all.body), []);
      t.strictSame((await owner.get(`/user_groups/${outer}/members`, { direct_member_only: true })).body['members'], [alice.id]);
      const isMember = await owner.get(`/user_groups/${outer}/members/${bob.id}`);
      t.strictSame(isMember.body, { result: 'success', msg: '', is_user_group_member: true });
      t.strictSame(responseViolations('get', '/user_groups/{user_group_id}/members/{user_id}', isMember.body), []);
      t.strictSame(
        (await owner.get(`/user_groups/${outer}/members/${bob.id}`, { direct_member_only: true })).body['is_user_group_member'],
        false,
      );
      t.strictSame((await owner.get(`/user_groups/${outer}/members/9999`)).body, error('No such user'));
      const subgroups = await owner.get(`/user_groups/${outer}/subgroups`);
      t.strictSame(subgroups.body, { result: 'success', msg: '', subgroups: [middle, inner] });
      t.strictSame(responseViolations('get', '/user_groups/{user_group_id}/subgroups', subgroups.body), []);
      t.strictSame((await owner.get(`/user_groups/${outer}/subgroups`, { direct_subgroup_only: true })).body['subgroups'], [middle]);
    });

    t.test('a deleted group leaves the groups that contained it', async (t) => {
      t.strictSame((await owner.call('DELETE', `/user_groups/${middle}`)).body, { result: 'success', msg: '' });
      t.strictSame((await groupNamed('outer')).direct_subgroup_ids, []);
      t.strictSame((await owner.get(`/user_groups/${outer}/members`)).body['members'], [alice.id]);
      t.notOk((await groups()).some((g) => g.id === middle));
    });
  });

  t.test('every change reaches a registered queue as a user_group event', async (t) => {
    const reader = await EventReader.register(owner.as(bob), { event_types: ['user_group'] });
    const id = await create('events', [alice.id]);
    const sub = await create('eventsub', []);
    t.strictSame(await reader.nextPayloads(), [
      {
        type: 'user_group',
        op: 'add',
        group: { id, name: 'events', description: 'events group', members: [alice.id], direct_subgroup_ids: [], is_system_group: false },
      },
      {
        type: 'user_group',
        op: 'add',
        group: { id: sub, name: 'eventsub', description: 'eventsub group', members: [], direct_subgroup_ids: [], is_system_group: false },
      },
    ]);
    await owner.call('PATCH', `/user_groups/${id}`, { name: 'happenings', description: 'What happens' });
    t.strictSame(await reader.nextPayloads(), [
      { type: 'user_group', op: 'update', group_id: id, data: { name: 'happenings' } },
      { type: 'user_group', op: 'update', group_id: id, data: { description: 'What happens' } },
    ]);
    // The public API's wire form: urlencoded with JSON-encoded lists.
    await owner.post(`/user_groups/${id}/members`, { add: JSON.stringify([bob.id]), delete: JSON.stringify([alice.id]) });
    t.strictSame(await reader.nextPayloads(), [
      { type: 'user_group', op: 'add_members', group_id: id, user_ids: [bob.id] },
      { type: 'user_group', op: 'remove_members', group_id: id, user_ids: [alice.id] },
    ]);
    await owner.post(`/user_groups/${id}/subgroups`, { add: [sub] });
    t.strictSame(await reader.nextPayloads(), [{ type: 'user_group', op: 'add_subgroups', group_id: id, direct_subgroup_ids: [sub] }]);
    await owner.post(`/user_groups/${id}/subgroups`, { delete: [sub] });
    t.strictSame(await reader.nextPayloads(), [{ type: 'user_group', op: 'remove_subgroups', group_id: id, direct_subgroup_ids: [sub] }]);
    await owner.call('DELETE', `/user_groups/${id}`);
    t.strictSame(await reader.nextPayloads(), [{ type: 'user_group', op: 'remove', group_id: id }]);
    const fresh = await owner.as(bob).post('/register', { fetch_event_types: ['realm_user_groups'] });
    t.notOk(
      (fresh.body['realm_user_groups'] as Group[]).some((g) => g.id === id),
      'register no longer lists it',
    );
  });
});
