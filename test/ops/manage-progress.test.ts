import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { manage } from '../helpers/manage';
import { REPO_ROOT, tempDataDir } from '../helpers/server';

// issue 23: long commands draw a progress bar on stderr when stdout is a terminal, and none
// when their output goes to a pipe (scripts). util-linux `script` gives the command a terminal.

const MANAGE = path.join(REPO_ROOT, 'build', 'src', 'cli', 'manage.js');
const hasScript = spawnSync('script', ['--version']).status === 0;

t.test('a progress bar only on a terminal', { skip: hasScript ? false : 'util-linux script is not installed' }, async (t) => {
  const dataDir = tempDataDir();
  const env = { DATA_DIR: dataDir, EXTERNAL_HOST: 'localhost:9' };
  t.equal(manage(['create-realm', '--subdomain', 'default', '--name', 'D', '--owner-email', 'o@d.test'], env).status, 0);
  const backupDir = tempDataDir();

  const piped = manage(['backup', '--to', backupDir], env);
  t.strictSame([piped.status, piped.stderr], [0, ''], 'no bar into a pipe');

  const target = path.join(backupDir, 'default.sqlite3');
  const onTerminal = spawnSync('script', ['-qec', `${process.execPath} ${MANAGE} backup --to ${backupDir}`, '/dev/null'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  t.equal(onTerminal.status, 0);
  t.equal(
    onTerminal.stdout,
    `\rbackup default [${'.'.repeat(30)}]   0%\rbackup default [${'#'.repeat(30)}] 100%\r\x1b[2Kdefault -> ${target}\r\n`,
  );
  t.ok(fs.existsSync(target));
});
