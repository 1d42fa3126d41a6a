/**
 * `npm run soak -- <scenario>`: the long versions of bounded tests, printing their figures.
 *   crash   50 kill -9 cycles of test/spec/12-crash-loop (SOAK_CRASH_CYCLES): cycles,
 *           acknowledged writes, lost (must be 0), worst restart time, integrity of every file.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

const SCENARIOS: Record<string, () => number> = {
  crash: () => {
    const cycles = process.env['SOAK_CRASH_CYCLES'] ?? '50';
    const tap = path.join(ROOT, 'node_modules', '.bin', 'tap');
    const run = spawnSync(tap, ['--reporter=tap', '--timeout=3600', path.join(ROOT, 'build', 'test', 'spec', '12-crash-loop.test.js')], {
      env: { ...process.env, CRASH_CYCLES: cycles },
      encoding: 'utf8',
      cwd: ROOT,
    });
    // The test's own comments carry the figures; its assertions say whether they held.
    for (const line of run.stdout.split('\n')) if (/# (seed|\d+ cycles)|not ok|integrity_check/.test(line)) console.log(line.trim());
    console.log(run.status === 0 ? 'crash soak: held' : 'crash soak: FAILED');
    return run.status ?? 1;
  },
};

const names = process.argv.slice(2);
const unknown = names.filter((name) => !(name in SCENARIOS));
if (names.length === 0 || unknown.length > 0) {
  console.error(`usage: npm run soak -- ${Object.keys(SCENARIOS).join('|')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
  process.exitCode = 2;
} else {
  for (const name of names) process.exitCode = (SCENARIOS[name] as () => number)() || (process.exitCode ?? 0);
}
