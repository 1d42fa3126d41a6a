import path from 'node:path';
import t from 'tap';
import { ApiClient } from '../helpers/http';
import { json, manage, type CliUser } from '../helpers/manage';
import { startServer } from '../helpers/server';

// issue 23 "Management CLI": the account and realm commands on the files with no server; the
// server started afterwards serves what they did (test/ops/manage-users.test.ts: with a server).

t.test('the same commands on the files with no server', async (t) => {
  const first = await startServer();
  await first.stop();
  const env = { DATA_DIR: first.dataDir, EXTERNAL_HOST: 'localhost:9' };
  const bob = json<CliUser>(
    manage(['create-user', '--email', 'bob@example.com', '--full-name', 'Bob', '--role', 'moderator', '--json'], env),
  );
  const carol = json<CliUser>(manage(['create-user', '--email', 'carol@example.com', '--full-name', 'Carol', '--json'], env));
  t.equal(json<CliUser>(manage(['change-role', '--email', carol.email, '--role', 'administrator', '--json'], env)).role, 'administrator');
  const reset = json<CliUser>(manage(['reset-api-key', '--email', bob.email, '--json'], env));
  t.not(reset.api_key, bob.api_key);
  t.equal(json<CliUser>(manage(['deactivate-user', '--email', carol.email, '--json'], env)).is_active, false);
  const dave = json<CliUser>(manage(['create-user', '--email', 'dave@example.com', '--full-name', 'Dave', '--json'], env));
  t.equal(json<CliUser>(manage(['deactivate-user', '--email', dave.email, '--json'], env)).is_active, false);
  t.equal(json<CliUser>(manage(['reactivate-user', '--email', dave.email, '--json'], env)).is_active, true);
  const password = json<CliUser>(manage(['change-password', '--email', dave.email, '--json'], env)).password ?? '';
  t.equal(password.length, 20, 'a random password is made and printed');
  t.strictSame(json(manage(['deactivate-realm', '--json'], env)), { realm: 'default', deactivated: true });
  t.strictSame(json(manage(['reactivate-realm', '--json'], env)), { realm: 'default', deactivated: false });
  const listed = json<{ users: CliUser[] }>(manage(['list-users', '--json'], env));
  t.strictSame(
    listed.users.map((u) => [u.email, u.role, u.is_active]),
    [
      [first.owner.email, 'owner', true],
      ['bob@example.com', 'moderator', true],
      ['carol@example.com', 'administrator', false],
      ['dave@example.com', 'member', true],
    ],
  );
  const exportFile = path.join(first.dataDir, 'default.json');
  t.equal(json<{ realm: string }>(manage(['export-realm', '--to', exportFile, '--json'], env)).realm, 'default');
  t.equal(json<{ realm: string }>(manage(['import-realm', exportFile, '--realm', 'copy', '--json'], env)).realm, 'copy');

  const server = await startServer({ dataDir: first.dataDir });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  t.equal((await api.as({ email: bob.email, key: String(bob.api_key) }).get('/users/me')).status, 401, 'the old key is gone');
  const me = await api.as({ email: bob.email, key: String(reset.api_key) }).get('/users/me');
  t.strictSame([me.status, me.body['role']], [200, 300]);
  t.equal((await api.as({ email: carol.email, key: String(carol.api_key) }).get('/users/me')).body['code'], 'USER_DEACTIVATED');
  const fetched = await api.as(null).post('/fetch_api_key', { username: dave.email, password });
  t.strictSame([fetched.status, fetched.body['api_key']], [200, dave.api_key]);
  // The imported realm is served with the same accounts.
  const inCopy = new ApiClient(server.baseUrl, { email: bob.email, key: String(reset.api_key) }, `copy.localhost:${server.port}`);
  const copyMe = await inCopy.get('/users/me');
  t.strictSame([copyMe.status, copyMe.body['user_id']], [200, bob.user_id]);
});
