import t from 'tap';
import { manage } from '../helpers/manage';

// issue 23 "Management CLI": --help for the whole tool and for each command.

t.test('--help for the tool and for each command', async (t) => {
  const env = { DATA_DIR: '/nonexistent' };
  const tool = manage(['--help'], env);
  t.strictSame([tool.status, tool.stdout.split('\n')[0]], [0, 'usage: npm run manage -- <command> [options] [--realm R] [--json]']);
  const commands = tool.stdout
    .split('commands:\n')[1]
    ?.split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trim().split(' ')[0] ?? '');
  t.strictSame(commands, [
    'create-realm',
    'list-realms',
    'check',
    'backup',
    'restore',
    'export-realm',
    'import-realm',
    'deactivate-realm',
    'reactivate-realm',
    'create-user',
    'change-role',
    'deactivate-user',
    'reactivate-user',
    'reset-api-key',
    'change-password',
    'list-users',
    'proxy-config',
    'move-realm',
  ]);
  for (const command of commands ?? []) {
    const help = manage([command, '--help'], env);
    t.equal(help.status, 0, command);
    t.equal(help.stdout.split('\n')[0]?.startsWith(`usage: npm run manage -- ${command}`), true, `${command} --help`);
  }
});
