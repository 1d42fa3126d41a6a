import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { REPO_ROOT } from '../helpers/server';

// STYLE.md habit 4: events leave only through actions and actors, which queue them with
// `tx.publish(` inside their transaction; a grep for the call keeps the rule checkable (the
// method's declaration in workers/realm.ts is not a call).
const WORKERS = path.join(REPO_ROOT, 'workers');
const ALLOWED = /^(actions|actors)\//;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

t.test('.publish( is called only in workers/actions/ and workers/actors/', async (t) => {
  const offenders = sources(WORKERS)
    .map((file) => path.relative(WORKERS, file))
    .filter((file) => !ALLOWED.test(file) && /\.publish\(/.test(fs.readFileSync(path.join(WORKERS, file), 'utf8')));
  t.strictSame(offenders, []);
});

t.test('the check finds publish( where it is used', async (t) => {
  const users = sources(path.join(WORKERS, 'actions')).filter((file) => /\.publish\(/.test(fs.readFileSync(file, 'utf8')));
  t.ok(users.length > 0, 'actions publish events, so the pattern matches real code');
});
