import t from 'tap';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';

/*
 * register's large lists (realm_users, realm_user_groups, streams, user_status) are built once
 * and shared by every viewer of a kind until what they show changes
 * (workers/queries/register-users-json.ts and its neighbours). These check, through the API,
 * that each viewer still gets exactly their own view, and that every change shows at once.
 */

type Person = Record<string, unknown> & { user_id: number };

t.test('register lists shared between viewers', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const hidden = await createMember(owner, 'Hidden');
  const other = await createMember(owner, 'Other');
  const asHidden = owner.as(hidden);
  const asOther = owner.as(other);
  const realmUsers = async (client: ApiClient): Promise<Person[]> => {
    const res = await client.post('/register', { fetch_event_types: ['realm_user'] });
    t.equal(res.status, 200, res.text);
    return res.body['realm_users'] as Person[];
  };
  // Visibility 4: nobody but the person sees their real email (SPEC User.delivery_email).
  t.equal((await asHidden.call('PATCH', '/settings', { email_address_visibility: 4 })).status, 200);

  t.test("a viewer's own entry differs from the shared list only where it must", async (t) => {
    // The other member asks first, so the members' list exists when the hidden one asks.
    const seenByOther = await realmUsers(asOther);
    const seenByHidden = await realmUsers(asHidden);
    const ownEntry = seenByHidden.find((person) => person.user_id === hidden.id);
    const othersView = seenByOther.find((person) => person.user_id === hidden.id);
    t.equal(ownEntry?.['delivery_email'], hidden.email, 'their own real email');
    t.equal(othersView?.['delivery_email'], null, 'another member does not see it');
    // client_extavatar (on by default): whoever sees the real email computes the picture's URL.
    t.equal(ownEntry?.['avatar_url'], null, 'no picture URL for themself');
    t.match(othersView?.['avatar_url'], /^https:\/\//, 'a picture URL for the other member');
    t.strictSame(
      { ...ownEntry, delivery_email: null, avatar_url: othersView?.['avatar_url'] },
      othersView,
      'and nothing else of the entry differs',
    );
    t.strictSame(
      seenByHidden.filter((person) => person.user_id !== hidden.id),
      seenByOther.filter((person) => person.user_id !== hidden.id),
      "everyone else's entries are the same for both",
    );
    t.strictSame(
      seenByOther.map((person) => person.user_id),
      seenByHidden.map((person) => person.user_id),
      'the same people in the same order',
    );
    const forOwner = (await realmUsers(owner)).find((person) => person.user_id === hidden.id);
    t.equal(forOwner?.['delivery_email'], null, 'visibility "nobody" hides it from the owner too');
  });

  t.test('a changed profile value shows in the next register', async (t) => {
    const field = await owner.post('/realm/profile_fields', { name: 'Desk', field_type: 1 });
    t.equal(field.status, 200, field.text);
    const fieldId = Number(field.body['id']);
    const before = (await realmUsers(asOther)).find((person) => person.user_id === hidden.id);
    t.strictSame(before?.['profile_data'], {}, 'no value yet');
    for (const value of ['B-12', 'C-3']) {
      t.equal((await asHidden.call('PATCH', '/users/me/profile_data', { data: [{ id: fieldId, value }] })).status, 200);
      const after = (await realmUsers(asOther)).find((person) => person.user_id === hidden.id);
      t.strictSame(after?.['profile_data'], { [String(fieldId)]: { value, rendered_value: `<p>${value}</p>` } }, `the value ${value}`);
    }
    t.equal((await owner.call('DELETE', `/realm/profile_fields/${fieldId}`)).status, 200);
    const gone = (await realmUsers(asOther)).find((person) => person.user_id === hidden.id);
    t.strictSame(gone?.['profile_data'], {}, 'a deleted field takes its values with it');
  });

  t.test('a new group and a new member of it show in register and GET /user_groups alike', async (t) => {
    const groups = async (): Promise<{ registered: unknown; listed: unknown }> => {
      const registered = (await asOther.post('/register', { fetch_event_types: ['realm_user_groups'] })).body['realm_user_groups'];
      const listed = (await asOther.get('/user_groups')).body['user_groups'];
      return { registered, listed };
    };
    const created = await owner.post('/user_groups/create', { name: 'desk team', description: 'd', members: [hidden.id] });
    t.equal(created.status, 200, created.text);
    const first = await groups();
    t.strictSame(first.registered, first.listed, 'the same list both ways');
    const team = (first.listed as { id: number; name: string; members: number[] }[]).find((group) => group.name === 'desk team');
    t.strictSame(team?.members, [hidden.id]);
    t.equal((await owner.post(`/user_groups/${String(team?.id)}/members`, { add: [other.id] })).status, 200);
    const second = await groups();
    t.strictSame(second.registered, second.listed, 'the same list both ways after the change');
    const grown = (second.listed as { name: string; members: number[] }[]).find((group) => group.name === 'desk team');
    t.strictSame(
      grown?.members,
      [hidden.id, other.id].sort((a, b) => a - b),
      'the new member is there',
    );
  });

  t.test('statuses and presence_enabled show in the next register', async (t) => {
    const statusOf = async (userId: number): Promise<unknown> =>
      ((await asOther.post('/register', { fetch_event_types: ['user_status'] })).body['user_status'] as Record<string, unknown>)[
        String(userId)
      ];
    t.equal(await statusOf(hidden.id), undefined, 'nothing to show');
    t.equal((await asHidden.post('/users/me/status', { status_text: 'at lunch' })).status, 200);
    t.strictSame(await statusOf(hidden.id), { status_text: 'at lunch' });
    t.equal((await asHidden.call('PATCH', '/settings', { presence_enabled: false })).status, 200);
    t.strictSame(await statusOf(hidden.id), { away: true, status_text: 'at lunch' });
    t.equal((await asHidden.post('/users/me/status', { status_text: '' })).status, 200);
    t.strictSame(await statusOf(hidden.id), { away: true });
    t.equal((await asHidden.call('PATCH', '/settings', { presence_enabled: true })).status, 200);
    t.equal(await statusOf(hidden.id), undefined, 'nothing to show again');
  });

  t.test('a new stream and an archived one show in the next register', async (t) => {
    const streams = async (): Promise<{ streams: string[]; neverSubscribed: string[] }> => {
      const body = (await asOther.post('/register', { fetch_event_types: ['stream', 'subscription'] })).body;
      const names = (list: unknown): string[] => (list as { name: string }[]).map((stream) => stream.name);
      return { streams: names(body['streams']), neverSubscribed: names(body['never_subscribed']) };
    };
    t.equal((await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'desks' }] })).status, 200);
    const created = await streams();
    t.ok(created.streams.includes('desks'), 'in streams');
    t.ok(created.neverSubscribed.includes('desks'), 'in never_subscribed');
    const id = Number((await owner.get('/get_stream_id', { stream: 'desks' })).body['stream_id']);
    t.equal((await owner.call('DELETE', `/streams/${id}`)).status, 200);
    const archived = await streams();
    t.notOk(archived.streams.includes('desks'), 'no longer in streams');
    t.notOk(archived.neverSubscribed.includes('desks'), 'no longer in never_subscribed');
  });
});
