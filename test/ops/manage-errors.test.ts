import t from 'tap';
import { manage } from '../helpers/manage';
import { startServer } from '../helpers/server';

// issue 23 "Management CLI": every error is one line on stderr and a non-zero exit status
// (2: a bad command line, 1: the command failed), through the server and without one.

t.test('every bad command line and every refusal: one stderr line and a non-zero exit', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const env = { DATA_DIR: server.dataDir, EXTERNAL_HOST: `localhost:${server.port}` };
  const owner = server.owner.email;
  const cases: [string[], number, string][] = [
    [['frobnicate'], 2, "error: unknown command 'frobnicate' (npm run manage -- --help lists them)"],
    [['list-users', '--bogus'], 2, "error: list-users: Unknown option '--bogus'"],
    [['create-user', '--email'], 2, "error: create-user: Option '--email <value>' argument missing"],
    [['create-user', '--email', 'x@example.com'], 2, 'error: --full-name is required'],
    [
      ['create-user', '--email', 'x@example.com', '--full-name', 'X', '--role', 'king'],
      2,
      "error: --role 'king': use one of owner, administrator, moderator, member, guest",
    ],
    [['create-user', '--email', 'not-an-email', '--full-name', 'X'], 1, "error: Invalid email 'not-an-email'"],
    [['create-user', '--email', owner, '--full-name', 'X'], 1, `error: Email '${owner}' already in use`],
    [['change-role', '--email', owner], 2, 'error: --role is required'],
    [
      ['change-role', '--email', owner, '--role', 'member'],
      1,
      'error: The owner permission cannot be removed from the only organization owner.',
    ],
    [['deactivate-user', '--email', owner], 1, 'error: Cannot deactivate the only organization owner'],
    [['reactivate-user', '--email', owner], 1, 'error: User is already active'],
    [['reset-api-key', '--email', 'nobody@example.com'], 1, "error: no user with email 'nobody@example.com' in realm 'default'"],
    [['reset-api-key'], 2, 'error: --email is required'],
    [['change-password', '--email', owner, '--password', 'abc'], 1, 'error: New password is too weak!'],
    [['list-users', '--realm', 'nowhere'], 1, `error: no realm 'nowhere' in ${server.dataDir}`],
    [
      ['list-users', '--realm', 'Not A Realm'],
      2,
      "error: --realm 'Not A Realm': not a realm name (lowercase letters, digits, inner hyphens)",
    ],
    [['list-users', 'extra'], 2, "error: list-users: unexpected argument 'extra'"],
    [['reactivate-realm'], 1, 'error: The organization is already active'],
    [['restore'], 2, 'error: restore: missing argument (restore FILE [--force])'],
    [['export-realm'], 2, 'error: --to is required'],
    [['import-realm', '/nowhere.json'], 2, 'error: import-realm: --realm is required (the new realm to create)'],
    [['backup'], 2, 'error: --to is required'],
  ];
  for (const [args, status, line] of cases) {
    const result = manage(args, env);
    t.strictSame([result.status, result.stderr, result.stdout], [status, `${line}\n`, ''], args.join(' '));
  }
  // The refusals that reach a realm, without a server: the same lines.
  await server.stop();
  for (const [args, status, line] of cases.filter(([, status]) => status === 1)) {
    const result = manage(args, env);
    t.strictSame([result.status, result.stderr], [status, `${line}\n`], `${args.join(' ')} (no server)`);
  }
});
