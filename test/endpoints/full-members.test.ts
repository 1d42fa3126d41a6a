import Database from 'better-sqlite3';
import path from 'node:path';
import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { RealmFile } from '../helpers/realm-file';
import { startServer } from '../helpers/server';

// issue 9: `@role:fullmembers` follows roles and the realm's waiting_period_threshold: its direct
// members are the members whose account is at least that many days old (public API 7.0).

const DAY_S = 24 * 60 * 60;

t.test('@role:fullmembers', async (t) => {
  // The promotion actor runs often here, so a backdated account is promoted without waiting a day.
  const server = await startServer({ env: { FULL_MEMBERS_INTERVAL_MS: '100' } });
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const file = new RealmFile(server);
  t.teardown(() => file.close());

  const groups = (await owner.get('/user_groups')).body['user_groups'] as { id: number; name: string }[];
  const groupId = (name: string): number => groups.find((g) => g.name === name)?.id ?? -1;
  const fullMembers = groupId('@role:fullmembers');
  const members = groupId('@role:members');
  const everyone = groupId('@role:everyone');
  const membersOf = async (group: number, direct = false): Promise<number[]> => {
    const res = await owner.get(`/user_groups/${group}/members`, { direct_member_only: direct });
    return res.body['members'] as number[];
  };
  const registeredMembers = async (group: number): Promise<number[]> => {
    const state = await owner.post('/register', { fetch_event_types: ['realm_user_groups'] });
    const found = (state.body['realm_user_groups'] as { id: number; members: number[] }[]).find((g) => g.id === group);
    return found?.members ?? [];
  };
  const patchRealm = async (params: Record<string, number>) => {
    const res = await owner.call('PATCH', '/realm', params);
    if (res.status !== 200) throw new Error(res.text);
  };
  const setRole = async (userId: number, role: number) => {
    const res = await owner.call('PATCH', `/users/${userId}`, { role });
    if (res.status !== 200) throw new Error(res.text);
  };
  const reader = await EventReader.register(owner, { event_types: ['user_group'] });
  let promptMember = -1;

  await t.test('with waiting_period_threshold 0 a new member is a full member at once', async (t) => {
    const member = await createMember(owner, 'Prompt');
    promptMember = member.id;
    t.strictSame(await reader.nextPayloads(), [
      { type: 'user_group', op: 'add_members', group_id: members, user_ids: [member.id] },
      { type: 'user_group', op: 'add_members', group_id: fullMembers, user_ids: [member.id] },
    ]);
    t.strictSame(await membersOf(fullMembers, true), [member.id], 'the only direct member');
    t.strictSame(
      (await membersOf(fullMembers)).sort((a, b) => a - b),
      [1, member.id],
      'the owner is in it through the subgroups',
    );
    t.strictSame(await registeredMembers(fullMembers), [member.id], 'register shows the direct members');
  });

  await t.test('a bot has the member role and joins too', async (t) => {
    const res = await owner.post('/bots', { full_name: 'Helper bot', short_name: 'helper' });
    t.equal(res.status, 200, res.text);
    const botId = Number(res.body['user_id']);
    t.strictSame(await reader.nextPayloads(), [
      { type: 'user_group', op: 'add_members', group_id: members, user_ids: [botId] },
      { type: 'user_group', op: 'add_members', group_id: fullMembers, user_ids: [botId] },
    ]);
    t.strictSame(await membersOf(fullMembers, true), [promptMember, botId]);
  });

  let newcomer = -1;
  await t.test(
    'a waiting period keeps new members out, refuses them full-member policies, and the actor promotes them later',
    async (t) => {
      const directBefore = await membersOf(fullMembers, true);
      await patchRealm({ waiting_period_threshold: 10, create_public_stream_policy: 3 });
      t.strictSame(
        await reader.nextPayloads(),
        [{ type: 'user_group', op: 'remove_members', group_id: fullMembers, user_ids: directBefore }],
        'raising the threshold removes the accounts younger than it',
      );
      t.strictSame(await membersOf(fullMembers, true), []);

      const credentials = await createMember(owner, 'Newcomer');
      newcomer = credentials.id;
      t.strictSame(await reader.nextPayloads(), [{ type: 'user_group', op: 'add_members', group_id: members, user_ids: [newcomer] }]);
      t.strictSame(await membersOf(fullMembers, true), []);
      const client = owner.as(credentials);
      const refused = await client.post('/users/me/subscriptions', { subscriptions: [{ name: 'newcomers' }] });
      t.equal(refused.status, 400);
      t.strictSame(refused.body, { result: 'error', msg: 'Insufficient permission', code: 'BAD_REQUEST' });

      // Eleven days of membership, without waiting for them; the actor's next run promotes. Kept a
      // file write (time travel): it moves the stamp the realm clock wrote, and no endpoint does.
      file.run('UPDATE users SET date_joined = date_joined - ? WHERE id = ?', 11 * DAY_S, newcomer);
      const promoted = await reader.waitPayloads();
      t.strictSame(promoted, [{ type: 'user_group', op: 'add_members', group_id: fullMembers, user_ids: [newcomer] }]);
      t.strictSame(await membersOf(fullMembers, true), [newcomer]);
      t.strictSame(await registeredMembers(fullMembers), [newcomer]);
      const allowed = await client.post('/users/me/subscriptions', { subscriptions: [{ name: 'newcomers' }] });
      t.equal(allowed.status, 200, allowed.text);
    },
  );

  await t.test('demotion to guest removes a full member, promotion back adds them', async (t) => {
    await setRole(newcomer, 600);
    t.strictSame(await reader.nextPayloads(), [
      { type: 'user_group', op: 'remove_members', group_id: members, user_ids: [newcomer] },
      { type: 'user_group', op: 'add_members', group_id: everyone, user_ids: [newcomer] },
      { type: 'user_group', op: 'remove_members', group_id: fullMembers, user_ids: [newcomer] },
    ]);
    t.strictSame(await membersOf(fullMembers, true), []);
    await setRole(newcomer, 400);
    t.strictSame(await reader.nextPayloads(), [
      { type: 'user_group', op: 'remove_members', group_id: everyone, user_ids: [newcomer] },
      { type: 'user_group', op: 'add_members', group_id: members, user_ids: [newcomer] },
      { type: 'user_group', op: 'add_members', group_id: fullMembers, user_ids: [newcomer] },
    ]);
    t.strictSame(await membersOf(fullMembers, true), [newcomer]);
  });

  await t.test('an administrator is no direct full member but is in it through the subgroups', async (t) => {
    await setRole(newcomer, 200);
    const events = await reader.nextPayloads();
    t.strictSame(events.at(-1), { type: 'user_group', op: 'remove_members', group_id: fullMembers, user_ids: [newcomer] });
    t.strictSame(await membersOf(fullMembers, true), []);
    t.ok((await membersOf(fullMembers)).includes(newcomer));
    await setRole(newcomer, 400);
    t.strictSame((await reader.nextPayloads()).at(-1), {
      type: 'user_group',
      op: 'add_members',
      group_id: fullMembers,
      user_ids: [newcomer],
    });
  });

  await t.test('lowering the threshold promotes at once', async (t) => {
    const bot = (await owner.get('/users')).body['members'] as { user_id: number; is_bot: boolean; full_name: string }[];
    const botId = bot.find((u) => u.full_name === 'Helper bot')?.user_id ?? -1;
    await patchRealm({ waiting_period_threshold: 0, create_public_stream_policy: 1 });
    t.strictSame(await reader.nextPayloads(), [
      { type: 'user_group', op: 'add_members', group_id: fullMembers, user_ids: [promptMember, botId] },
    ]);
    t.strictSame(
      await membersOf(fullMembers, true),
      [promptMember, botId, newcomer].sort((a, b) => a - b),
    );
  });
});

t.test('the upgrade migration makes existing qualifying members full members', async (t) => {
  const first = await startServer();
  const owner = new ApiClient(first.baseUrl, first.owner);
  const member = await createMember(owner, 'Existing');
  const guest = await createMember(owner, 'Guest');
  t.equal((await owner.call('PATCH', `/users/${guest.id}`, { role: 600 })).status, 200);
  const groups = (await owner.get('/user_groups')).body['user_groups'] as { id: number; name: string }[];
  const fullMembers = groups.find((g) => g.name === '@role:fullmembers')?.id ?? -1;
  await first.stop();

  // A realm file as it was before the migration: nobody in @role:fullmembers. Kept a file write
  // (the server is stopped): no endpoint changes a system group's members (actions/user-groups.ts).
  const db = new Database(path.join(first.dataDir, 'realms', 'default.sqlite3'));
  db.prepare('DELETE FROM user_group_members WHERE group_id = ?').run(fullMembers);
  // Migration 14 (workers/db/migrations-people.ts) is the one under test; later ones run again.
  db.pragma('user_version = 13');
  db.close();

  const second = await startServer({ dataDir: first.dataDir, port: first.port });
  t.teardown(() => second.stop());
  const res = await new ApiClient(second.baseUrl, second.owner).get(`/user_groups/${fullMembers}/members`, { direct_member_only: true });
  t.strictSame(res.body['members'], [member.id], 'the member joined; the guest and the owner did not');
});
