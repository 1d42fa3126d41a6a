/**
 * The repository stands on its own: a clone has nothing beside it, so no file of it names the
 * workspace directory beside it. The reference files are read only by the extract script
 * (test/reference/extract.ts), only where REFERENCE_DIR points, to refresh the committed
 * extracts, which are checked here whenever REFERENCE_DIR is set.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { FIXTURES_DIR, MARKDOWN_EXTRACT, OPENAPI_EXTRACT, referenceDir, staleExtracts } from '../reference/extract';
import { REPO_ROOT } from '../helpers/server';
import { repositoryFiles } from '../helpers/source-files';

const EXTRACT_SCRIPT = path.join('test', 'reference', 'extract.ts');
/** This file spells out what it looks for, so it is the one file not scanned. */
const THIS_FILE = path.join('test', 'repository', 'stands-alone.test.ts');
const SCANNED = ['src', 'workers', 'bench', 'test', '.ci'];
const TOP_LEVEL = ['package.json', 'tsconfig.json', 'README.md', 'eslint.config.mjs', '.dependency-cruiser.cjs'];
/** A path to the workspace directory beside a clone, written out or joined (built, so this file passes). */
const SHARED = ['..', 'shared'];
const OUTSIDE = [
  ...['/', '\\'].map((separator) => SHARED.join(separator)),
  new RegExp(SHARED.map((part) => `['"]${part.replace(/\./g, '\\.')}['"]`).join('\\s*,\\s*')),
];

t.test('no file of the repository names the directory beside a clone', async (t) => {
  const files = [...SCANNED.flatMap(repositoryFiles), ...TOP_LEVEL].filter((file) => file !== THIS_FILE);
  t.ok(files.length > 300, `${files.length} files scanned`);
  const offenders = files.filter((file) => {
    const text = fs.readFileSync(path.join(REPO_ROOT, file), 'latin1');
    return OUTSIDE.some((needle) => (typeof needle === 'string' ? text.includes(needle) : needle.test(text)));
  });
  t.strictSame(offenders, []);
  t.ok(
    fs.readFileSync(path.join(REPO_ROOT, EXTRACT_SCRIPT), 'utf8').includes("process.env['REFERENCE_DIR']"),
    'the extract script finds the reference files only where REFERENCE_DIR points',
  );
});

t.test('the README does not send a user beside the repository', async (t) => {
  const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  t.strictSame(
    readme.split('\n').filter((line) => /(^|[^.\w])\.\.\/shared|shared\/(SPEC|DESIGN|reference)/.test(line)),
    [],
  );
});

t.test('the committed extracts are there and well formed', async (t) => {
  const openapi = JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, OPENAPI_EXTRACT), 'utf8')) as {
    responses: Record<string, Record<string, unknown>>;
    schemas: Record<string, unknown>;
  };
  const markdown = JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, MARKDOWN_EXTRACT), 'utf8')) as {
    regular_tests: { name: string; input: string; expected_output: string }[];
    linkify_tests: unknown[];
  };
  t.ok(Object.keys(openapi.responses).length >= 60, `${Object.keys(openapi.responses).length} paths with a success schema`);
  t.type(openapi.responses['/messages']?.['get'], 'object');
  t.type(openapi.schemas['MessagesBase'], 'object');
  t.strictSame(markdown.regular_tests.length, 168);
  t.strictSame(markdown.linkify_tests.length, 73);
  t.strictSame(
    markdown.regular_tests.filter((c) => typeof c.input !== 'string' || typeof c.expected_output !== 'string'),
    [],
  );
  // Facts only: the schemas keep no descriptions or examples.
  const text = JSON.stringify(openapi);
  t.notMatch(text, /"(description|example|summary|title)":"/, 'no prose in the schema extract');
});

const reference = referenceDir();
t.test(
  'the committed extracts match a fresh extraction of the reference files',
  reference === null ? { skip: 'REFERENCE_DIR names no reference files (a clone has none)' } : {},
  async (t) => {
    t.strictSame(staleExtracts(reference as string), []);
  },
);
