/**
 * `npm run soak -- <scenario>`: the long versions of bounded tests, printing their figures.
 *   crash   50 kill -9 cycles of test/spec/12-crash-loop (SOAK_CRASH_CYCLES): cycles,
 *           acknowledged writes, lost (must be 0), worst restart time, integrity of every file.
 *   longpoll  2,000 parked long-polls across three realms while messages are sent at a steady
 *           rate for 10 minutes (bench/lib/longpoll-soak.ts); `--minutes N`, `--queues N`,
 *           `--rate N` (messages a second) change the run.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { longpollSoak } from './lib/longpoll-soak';

const ROOT = path.resolve(__dirname, '..', '..');

/** `--name value` options after the scenario names. */
function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at < 0 ? NaN : Number(process.argv[at + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const SCENARIOS: Record<string, () => number | Promise<number>> = {
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
  longpoll: () => longpollSoak({ minutes: option('minutes', 10), queues: option('queues', 2_000), rate: option('rate', 10) }),
};

const names = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'));
const unknown = names.filter((name) => !(name in SCENARIOS));
if (names.length === 0 || unknown.length > 0) {
  console.error(`usage: npm run soak -- ${Object.keys(SCENARIOS).join('|')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
  process.exitCode = 2;
} else {
  void (async () => {
    for (const name of names) {
      const scenario = SCENARIOS[name] as () => number | Promise<number>;
      process.exitCode = (await scenario()) || (process.exitCode ?? 0);
    }
  })();
}
