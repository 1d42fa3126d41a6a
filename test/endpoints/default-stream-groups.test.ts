import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';

interface Group {
  id: number;
  name: string;
  description: string;
  streams: { name: string }[];
}

t.test('default stream groups', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const alice = owner.as(await createMember(owner, 'Alice'));
  await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'north' }, { name: 'south' }, { name: 'always' }] });
  await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'hidden' }], invite_only: true });
  const alwaysId = ((await owner.get('/streams')).body['streams'] as { name: string; stream_id: number }[]).find(
    (s) => s.name === 'always',
  )?.stream_id;
  await owner.post('/default_streams', { stream_id: alwaysId as number });
  const groupsOf = async (client: ApiClient): Promise<Group[]> =>
    (await client.post('/register', { event_types: ['default_stream_groups'] })).body['realm_default_stream_groups'] as Group[];
  const summary = (groups: Group[]) => groups.map((g) => [g.name, g.description, g.streams.map((s) => s.name)]);
  const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });
  let groupId = 0;

  t.test('create: errors', async (t) => {
    const member = await alice.post('/default_stream_groups/create', { group_name: 'g', description: '', stream_names: ['north'] });
    t.strictSame(member.body, { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    const unknown = await owner.post('/default_stream_groups/create', { group_name: 'g', description: '', stream_names: ['nowhere'] });
    t.equal(unknown.status, 400);
    t.strictSame(unknown.body, error("Invalid stream name 'nowhere'"));
    const isDefault = await owner.post('/default_stream_groups/create', { group_name: 'g', description: '', stream_names: ['always'] });
    t.strictSame(isDefault.body, error("'always' is a default stream and cannot be added to 'g'"));
    const hidden = await owner.post('/default_stream_groups/create', { group_name: 'g', description: '', stream_names: ['hidden'] });
    t.strictSame(hidden.body, error('Private streams cannot be made default.'));
    t.strictSame(await groupsOf(owner), [], 'nothing was created');
  });

  t.test('create: an event to everyone and the group in register', async (t) => {
    const reader = await EventReader.register(alice, { event_types: ['default_stream_groups'] });
    const res = await owner.post('/default_stream_groups/create', {
      group_name: 'Compass',
      description: 'two ways',
      stream_names: ['north'],
    });
    t.strictSame(res.body, { result: 'success', msg: '' });
    const events = await reader.nextPayloads();
    t.equal(events.length, 1);
    t.strictSame(summary(events[0]?.['default_stream_groups'] as Group[]), [['Compass', 'two ways', ['north']]]);
    const groups = await groupsOf(alice);
    t.strictSame(summary(groups), [['Compass', 'two ways', ['north']]]);
    groupId = groups[0]?.id as number;
    const again = await owner.post('/default_stream_groups/create', { group_name: 'compass', description: '', stream_names: [] });
    t.strictSame(again.body, error("Default stream group 'compass' already exists"));
  });

  t.test('streams: add and remove, with their errors', async (t) => {
    const path = `/default_stream_groups/${groupId}/streams`;
    t.strictSame(
      (await owner.call('PATCH', path, { op: 'swap', stream_names: ['south'] })).body,
      error('Invalid value for "op". Specify one of "add" or "remove".'),
    );
    t.strictSame(
      (await owner.call('PATCH', path, { op: 'add', stream_names: ['north'] })).body,
      error("Stream 'north' is already present in default stream group 'Compass'"),
    );
    t.strictSame(
      (await owner.call('PATCH', path, { op: 'remove', stream_names: ['south'] })).body,
      error("Stream 'south' is not present in default stream group 'Compass'"),
    );
    t.strictSame(
      (await owner.call('PATCH', '/default_stream_groups/9999/streams', { op: 'add', stream_names: ['south'] })).body,
      error("Default stream group with id '9999' does not exist."),
    );
    const reader = await EventReader.register(alice, { event_types: ['default_stream_groups'] });
    t.strictSame((await owner.call('PATCH', path, { op: 'add', stream_names: ['south'] })).body, { result: 'success', msg: '' });
    t.strictSame((await owner.call('PATCH', path, { op: 'remove', stream_names: ['north'] })).body, { result: 'success', msg: '' });
    const events = await reader.nextPayloads();
    t.strictSame(
      events.map((e) => summary(e['default_stream_groups'] as Group[])),
      [[['Compass', 'two ways', ['north', 'south']]], [['Compass', 'two ways', ['south']]]],
    );
    t.strictSame(summary(await groupsOf(alice)), [['Compass', 'two ways', ['south']]]);
  });

  t.test('rename and describe, with their errors', async (t) => {
    const path = `/default_stream_groups/${groupId}`;
    t.strictSame((await owner.call('PATCH', path, {})).body, error('You must pass "new_description" or "new_group_name".'));
    t.strictSame(
      (await owner.call('PATCH', path, { new_group_name: 'Compass' })).body,
      error("This default stream group is already named 'Compass'"),
    );
    t.strictSame((await alice.call('PATCH', path, { new_group_name: 'Mine' })).body, {
      result: 'error',
      msg: 'Must be an organization administrator',
      code: 'UNAUTHORIZED_PRINCIPAL',
    });
    t.strictSame((await owner.call('PATCH', path, { new_group_name: 'Rose', new_description: 'of the winds' })).body, {
      result: 'success',
      msg: '',
    });
    t.strictSame(summary(await groupsOf(alice)), [['Rose', 'of the winds', ['south']]]);
  });

  t.test('delete', async (t) => {
    t.strictSame(
      (await owner.call('DELETE', '/default_stream_groups/9999')).body,
      error("Default stream group with id '9999' does not exist."),
    );
    const reader = await EventReader.register(alice, { event_types: ['default_stream_groups'] });
    t.strictSame((await owner.call('DELETE', `/default_stream_groups/${groupId}`)).body, { result: 'success', msg: '' });
    t.strictSame(await reader.nextPayloads(), [{ type: 'default_stream_groups', default_stream_groups: [] }]);
    t.strictSame(await groupsOf(alice), []);
  });
});
