/**
 * Mutation run: proves the suite can fail. For each mutant in ./mutants.ts it plants one
 * wire-level bug in a copy of the repository, builds it with tsc, runs the mutant's test files
 * and records which of them failed (killed it). Not a *.test.ts file: `npm test` does not run it.
 *
 *   npm run mutation [mutant-id ...]      plant the mutants (all by default), build, test
 *   npm run mutation -- --check           only check that every snippet occurs exactly once
 *
 * Exit code 1 when a mutant survives (or cannot be applied or built).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MUTANTS, type Mutant } from './mutants';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
/** Top-level entries never copied: installed packages (symlinked instead), outputs, local state. */
const NOT_COPIED = new Set(['node_modules', 'build', 'data', '.git', '.tap', 'coverage']);
const BUILD_TIMEOUT_MS = 5 * 60_000;
const TEST_TIMEOUT_MS = 10 * 60_000;

interface Outcome {
  mutant: Mutant;
  /** Test files with a failure; empty when the mutant survived. */
  killedBy: string[];
  /** Failed subtests, as "file: name > name". */
  failedSubtests: string[];
  /** Set when the mutant could not be tested (snippet, build or timeout). */
  problem?: string;
  seconds: number;
}

function copyRepository(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'teamchat-mutation-'));
  for (const entry of fs.readdirSync(REPO_ROOT)) {
    if (NOT_COPIED.has(entry)) continue;
    fs.cpSync(path.join(REPO_ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

function occurrences(text: string, snippet: string): number {
  let count = 0;
  for (let at = text.indexOf(snippet); at !== -1; at = text.indexOf(snippet, at + 1)) count += 1;
  return count;
}

/** The mutated text of the mutant's file; throws unless the snippet occurs exactly once. */
function mutatedText(copy: string, mutant: Mutant): { file: string; original: string; mutated: string } {
  const file = path.join(copy, mutant.file);
  const original = fs.readFileSync(file, 'utf8');
  const count = occurrences(original, mutant.snippet);
  if (count !== 1) throw new Error(`${mutant.id}: snippet occurs ${count} times in ${mutant.file}, expected exactly once`);
  return { file, original, mutated: original.replace(mutant.snippet, () => mutant.replacement) };
}

function build(copy: string): string | undefined {
  const tsc = path.join(copy, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(
    process.execPath,
    [tsc, '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', path.join('build', '.mutation.tsbuildinfo')],
    { cwd: copy, encoding: 'utf8', timeout: BUILD_TIMEOUT_MS },
  );
  if (result.status === 0) return undefined;
  return `build failed: ${(result.stdout + result.stderr).trim().split('\n').slice(0, 5).join(' | ')}`;
}

interface FailedNode {
  name: string;
  children: FailedNode[];
}

/** "parent > child: assertion" for each failed subtest whose failures are assertions only. */
function failurePaths(node: FailedNode, prefix: string): string[] {
  const path = prefix === '' ? node.name : `${prefix} > ${node.name}`;
  if (node.children.length === 0) return [];
  if (node.children.every((child) => child.children.length === 0)) {
    return [`${path}: ${node.children.map((child) => child.name).join('; ')}`];
  }
  return node.children.flatMap((child) => failurePaths(child, path));
}

/**
 * The failures in tap's TAP output: a top-level `not ok` names a test file, indented `not ok`
 * lines its subtests and assertions (4 spaces per level), each printed after its children.
 */
export function parseFailures(tap: string): { files: string[]; subtests: string[] } {
  const files: string[] = [];
  const subtests: string[] = [];
  let pending: { depth: number; node: FailedNode }[] = [];
  for (const line of tap.split('\n')) {
    const match = /^((?: {4})*)not ok \d+ - (.*?)(?: # .*)?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    const node: FailedNode = { name: match[2] ?? '', children: [] };
    // The entries deeper than this one, printed just before it, are its children.
    node.children = pending.filter((entry) => entry.depth > depth).map((entry) => entry.node);
    pending = pending.filter((entry) => entry.depth <= depth);
    if (depth === 0) {
      files.push(node.name);
      for (const child of node.children) subtests.push(...failurePaths(child, '').map((p) => `${node.name}: ${p}`));
      pending = [];
    } else {
      pending.push({ depth, node });
    }
  }
  return { files, subtests };
}

function runTests(copy: string, files: string[]): { files: string[]; subtests: string[]; problem?: string } {
  const tap = path.join(copy, 'node_modules', '.bin', 'tap');
  const result = spawnSync(tap, ['--reporter=tap', ...files], {
    cwd: copy,
    encoding: 'utf8',
    timeout: TEST_TIMEOUT_MS,
    maxBuffer: 256 * 1024 * 1024,
  });
  const failures = parseFailures(result.stdout ?? '');
  if (result.error) return { ...failures, problem: `tap: ${result.error.message}` };
  if (result.status !== 0 && failures.files.length === 0) {
    // A non-zero exit with no failed file still kills the mutant, but say why.
    return { files: ['(tap exited ' + String(result.status) + ')'], subtests: [] };
  }
  return failures;
}

function runMutant(copy: string, mutant: Mutant): Outcome {
  const started = Date.now();
  const seconds = (): number => Math.round((Date.now() - started) / 1000);
  const { file, original, mutated } = mutatedText(copy, mutant);
  fs.writeFileSync(file, mutated);
  try {
    const buildProblem = build(copy);
    console.log(`# ${mutant.id}: built in ${seconds()} s`);
    // `npm test` builds first: a mutant that tsc rejects (the wire contract's types) fails the suite there.
    if (buildProblem?.includes('error TS')) return { mutant, killedBy: ['tsc'], failedSubtests: [buildProblem], seconds: seconds() };
    if (buildProblem) return { mutant, killedBy: [], failedSubtests: [], problem: buildProblem, seconds: seconds() };
    const tests = runTests(copy, mutant.tests);
    const outcome: Outcome = { mutant, killedBy: tests.files, failedSubtests: tests.subtests, seconds: seconds() };
    if (tests.problem) outcome.problem = tests.problem;
    return outcome;
  } finally {
    fs.writeFileSync(file, original);
  }
}

function main(): void {
  const args = process.argv.slice(2);
  const checkOnly = args.includes('--check');
  const wanted = args.filter((arg) => arg !== '--check');
  const unknown = wanted.filter((id) => !MUTANTS.some((m) => m.id === id));
  if (unknown.length > 0) throw new Error(`unknown mutant ids: ${unknown.join(', ')}`);
  const mutants = wanted.length > 0 ? MUTANTS.filter((m) => wanted.includes(m.id)) : MUTANTS;
  const ids = new Set<string>();
  for (const mutant of MUTANTS) {
    if (ids.has(mutant.id)) throw new Error(`duplicate mutant id ${mutant.id}`);
    ids.add(mutant.id);
  }

  if (checkOnly) {
    // Every snippet against the checkout itself, without building or testing anything.
    for (const mutant of mutants) mutatedText(REPO_ROOT, mutant);
    console.log(`${mutants.length} mutants apply`);
    return;
  }

  const started = Date.now();
  const copy = copyRepository();
  console.log(`# repository copied to ${copy}`);
  // Every snippet is checked before anything runs, so a stale list fails at once.
  for (const mutant of mutants) mutatedText(copy, mutant);
  const baseProblem = build(copy);
  if (baseProblem) throw new Error(`the unmutated copy does not build: ${baseProblem}`);

  const outcomes: Outcome[] = [];
  for (const mutant of mutants) {
    const outcome = runMutant(copy, mutant);
    outcomes.push(outcome);
    const verdict = outcome.problem ? `PROBLEM ${outcome.problem}` : outcome.killedBy.length > 0 ? 'killed' : 'SURVIVED';
    console.log(`# ${mutant.id}: ${verdict} (${outcome.seconds} s)`);
    for (const subtest of outcome.failedSubtests) console.log(`#   ${subtest}`);
  }

  console.log('');
  console.log('| mutant | description | killed by |');
  console.log('|---|---|---|');
  for (const { mutant, killedBy, problem } of outcomes) {
    const by = problem ? `**${problem}**` : killedBy.length > 0 ? killedBy.join(', ') : '**SURVIVED**';
    console.log(`| ${mutant.id} | ${mutant.description} | ${by} |`);
  }
  const killed = outcomes.filter((o) => !o.problem && o.killedBy.length > 0).length;
  const survived = outcomes.length - killed;
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(`# run time ${minutes} min`);
  console.log(`${outcomes.length} mutants, ${killed} killed, ${survived} survived`);
  fs.rmSync(copy, { recursive: true, force: true });
  process.exitCode = survived > 0 ? 1 : 0;
}

if (require.main === module) main();
