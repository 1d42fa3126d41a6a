import t from 'tap';
import { ApiClient } from '../helpers/http';
import { responseViolations } from '../helpers/openapi';
import { streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';

t.test('stream preference answers conform to the reference OpenAPI', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'conform' }, { name: 'grouped' }] });
  const conform = await streamIdOf(owner, 'conform');

  const calls: [string, string, () => Promise<{ body: Record<string, unknown> }>][] = [
    [
      'post',
      '/users/me/subscriptions/properties',
      () =>
        owner.post('/users/me/subscriptions/properties', {
          subscription_data: [{ stream_id: conform, property: 'is_muted', value: true }],
          extra: 1,
        }),
    ],
    ['post', '/user_topics', () => owner.post('/user_topics', { stream_id: conform, topic: 'noise', visibility_policy: 1 })],
    ['post', '/default_streams', () => owner.post('/default_streams', { stream_id: conform })],
  ];
  for (const [method, path, call] of calls) {
    const res = await call();
    t.strictSame(responseViolations(method, path, res.body), [], `${method.toUpperCase()} ${path}: ${JSON.stringify(res.body)}`);
  }
  const group = await owner.post('/default_stream_groups/create', { group_name: 'G', description: 'd', stream_names: ['grouped'] });
  t.strictSame(group.body, { result: 'success', msg: '' });

  t.test('register with user_topics, default streams and default stream groups filled', async (t) => {
    const res = await owner.post('/register', {});
    t.equal((res.body['user_topics'] as unknown[]).length, 1);
    t.equal((res.body['realm_default_stream_groups'] as unknown[]).length, 1);
    t.strictSame(responseViolations('post', '/register', res.body), []);
  });
});
