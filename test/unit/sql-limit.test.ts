import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { sqlLimit, sqlOffset, steppedLimit } from '../../workers/lib/sql-limit';
import { REPO_ROOT } from '../helpers/server';
import { repositoryFiles } from '../helpers/source-files';

t.test('a row count is written into the SQL only when it is one', async (t) => {
  t.equal(sqlLimit(51), 'LIMIT 51');
  t.equal(sqlLimit(-1), 'LIMIT -1', 'no limit, as SQLite spells it');
  for (const bad of [1.5, -2, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) t.throws(() => sqlLimit(bad), `refuses ${bad}`);
  t.equal(sqlOffset(1999), 'OFFSET 1999');
  for (const bad of [1.5, -1, Number.NaN, 2 ** 53]) t.throws(() => sqlOffset(bad), `an offset refuses ${bad}`);
});

t.test('the counts clients choose share a few statements', async (t) => {
  const steps = new Set<number>();
  for (let count = 1; count <= 5001; count++) {
    const step = steppedLimit(count);
    if (step < count) t.fail(`${count} rows read as ${step}`);
    steps.add(step);
  }
  t.strictSame([...steps], [1, 2, 11, 21, 51, 101, 201, 501, 1001, 2001, 5001]);
  t.equal(steppedLimit(51), 51, 'a page of 50 and the row beyond it, as written');
});

t.test('no statement of the server binds its LIMIT or OFFSET', async (t) => {
  // workers/lib/sql-limit.ts says why (it is also the one file that spells it out).
  const files = [...repositoryFiles('workers'), ...repositoryFiles('src')].filter(
    (file) => file.endsWith('.ts') && !file.endsWith(path.join('lib', 'sql-limit.ts')),
  );
  t.ok(files.length > 200, `${files.length} files scanned`);
  const bound = /\b(LIMIT|OFFSET)\s+[?:@$]/;
  t.strictSame(
    files.filter((file) => bound.test(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'))),
    [],
  );
});
