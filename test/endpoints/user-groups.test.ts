import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember, fetchMessage } from '../helpers/fixtures';
import { startServer } from '../helpers/server';

t.test('user groups', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');

  t.test('a nonexistent member is BAD_REQUEST', async (t) => {
    const res = await api.post('/user_groups/create', { name: 'ghosts', description: 'd', members: [4242] });
    t.same(res.body, { result: 'error', msg: 'Invalid user ID: 4242', code: 'BAD_REQUEST' });
  });

  t.test('required parameters', async (t) => {
    const res = await api.post('/user_groups/create', { name: 'x', members: [1] });
    t.equal(res.body['code'], 'REQUEST_VARIABLE_MISSING');
    t.equal(res.body['var_name'], 'description');
  });

  t.test('a group is created once; system names are reserved', async (t) => {
    const res = await api.post('/user_groups/create', { name: 'support', description: 'Helpers', members: [alice.id] });
    t.same(res.body, { result: 'success', msg: '' });
    const again = await api.post('/user_groups/create', { name: 'Support', description: 'x', members: [] });
    t.same(again.body, { result: 'error', msg: "User group 'Support' already exists.", code: 'BAD_REQUEST' });
    const reserved = await api.post('/user_groups/create', { name: '@role:cool', description: 'x', members: [] });
    t.equal(reserved.body['code'], 'BAD_REQUEST');
  });

  t.test('mentioning a group flags its members as mentioned', async (t) => {
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'help', content: '@*support* please look' });
    const forAlice = await fetchMessage(api.as(alice), sent.body['id']);
    t.same(forAlice['flags'], ['mentioned']);
    t.match(String(forAlice['content']), /<span class="user-group-mention" data-user-group-id="\d+">@support<\/span>/);
  });
});
