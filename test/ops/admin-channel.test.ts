import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import t from 'tap';
import { callAdmin, NoServerError } from '../../src/cli/admin-client';
import { ApiClient } from '../helpers/http';
import { startServer, tempDataDir } from '../helpers/server';

// The admin channel (issue 23 "Management CLI"): HTTP over <dataDir>/admin.sock, answered by
// the shard that owns the realm. The CLI's commands are tested in test/ops/manage-*.test.ts.

t.test('the admin socket runs commands in the running server', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const socket = path.join(server.dataDir, 'admin.sock');
  t.equal(fs.statSync(socket).mode & 0o777, 0o600, 'only the server user may use the socket');

  const reset = await callAdmin(server.dataDir, 'reset-api-key', 'default', { email: server.owner.email });
  if (!reset.ok) throw new Error(reset.message);
  const user = reset.result['user'] as { user_id: number; email: string; api_key: string };
  t.strictSame(Object.keys(user), ['user_id', 'email', 'api_key']);
  const oldKey = new ApiClient(server.baseUrl, server.owner);
  const newKey = oldKey.as({ email: server.owner.email, key: user.api_key });
  t.equal((await oldKey.get('/users/me')).status, 401, 'the old key stops working at once');
  t.equal((await newKey.get('/users/me')).status, 200, 'the new key works at once');

  t.strictSame(await callAdmin(server.dataDir, 'list-users', 'nowhere', {}), {
    ok: false,
    code: 'no-such-realm',
    message: `no realm 'nowhere' in ${server.dataDir}`,
  });
  t.strictSame(await callAdmin(server.dataDir, 'reset-api-key', 'default', { email: 'nobody@example.com' }), {
    ok: false,
    code: 'no-such-user',
    message: "no user with email 'nobody@example.com' in realm 'default'",
  });

  const raw = (body: string): Promise<{ status: number; body: unknown }> =>
    new Promise((resolve, reject) => {
      const req = http.request({ socketPath: socket, method: 'POST', path: '/command' }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
      });
      req.on('error', reject);
      req.end(body);
    });
  t.strictSame(await raw('not json'), {
    status: 400,
    body: { ok: false, code: 'bad-argument', message: `Unexpected token 'o', "not json" is not valid JSON` },
  });
  const unknownCommand = await raw(JSON.stringify({ command: 'drop-everything', realm: 'default', args: {} }));
  t.equal(unknownCommand.status, 400);
  t.equal((unknownCommand.body as { code: string }).code, 'bad-argument');
});

t.test('without a server the client says so', async (t) => {
  const failure = await callAdmin(tempDataDir(), 'list-users', 'default', {}).then(
    () => null,
    (err: unknown) => err,
  );
  t.ok(failure instanceof NoServerError, 'a NoServerError');
});
