/**
 * Refreshes the committed extracts of the public API's reference files that the tests read
 * (`npm run refresh-reference`; `-- --check` compares instead of writing).
 *
 * This is the only code of the project that reads the reference files, and only where
 * REFERENCE_DIR points: a maintainer who has them sets it; a clone has none, and its tests read
 * only the extracts under test/fixtures/.
 *
 * What is kept is facts, no prose: of the OpenAPI file, the schema of every operation's success
 * answer and of every component schema, reduced to the keywords the tests' checker reads (types,
 * nullability, enums, properties, required keys, additional properties, items and the
 * allOf/oneOf/anyOf combinators), with the vendor-named identifiers replaced by the spec's
 * neutral ones; of the Markdown cases, each case's name, input, expected HTML and flags.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const FIXTURES_DIR = path.join(REPO_ROOT, 'test', 'fixtures');
export const OPENAPI_EXTRACT = 'openapi-responses.json';
export const MARKDOWN_EXTRACT = 'markdown-cases.json';

/** Where the reference files are (REFERENCE_DIR), or null when none is named or they are not there. */
export function referenceDir(): string | null {
  const dir = process.env['REFERENCE_DIR'];
  return dir !== undefined && fs.existsSync(path.join(dir, 'zulip-openapi.yaml')) ? dir : null;
}

/** The schema keywords the response checker (test/helpers/openapi.ts) understands. */
const SCHEMA_KEYWORDS = ['$ref', 'type', 'nullable', 'enum', 'required'] as const;
const NESTED_KEYWORDS = ['items', 'additionalProperties'] as const;
const LIST_KEYWORDS = ['allOf', 'oneOf', 'anyOf'] as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A schema with descriptions, examples and every other keyword the checker ignores removed. */
function factsOf(schema: Json): Json {
  if (!isObject(schema)) return schema;
  const facts: JsonObject = {};
  for (const key of SCHEMA_KEYWORDS) if (schema[key] !== undefined) facts[key] = schema[key];
  for (const key of NESTED_KEYWORDS) {
    const value = schema[key];
    if (value !== undefined) facts[key] = typeof value === 'boolean' ? value : factsOf(value);
  }
  for (const key of LIST_KEYWORDS) {
    const value = schema[key];
    if (Array.isArray(value)) facts[key] = value.map(factsOf);
  }
  const properties = schema['properties'];
  if (isObject(properties)) {
    facts['properties'] = Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, factsOf(value)]));
  }
  return facts;
}

/**
 * The reference file's text with its vendor-named identifiers replaced by the spec's neutral
 * ones. The vendor prefix is read from the file itself (`<prefix>_feature_level`), so no vendor
 * name is written here.
 */
function withNeutralNames(text: string): string {
  let result = text;
  const prefix = /\b([a-z]+)_feature_level\b/.exec(result)?.[1];
  if (prefix) {
    result = result.replace(new RegExp(`\\b${prefix}_(feature_level|version|merge_base|extra_emoji)\\b`, 'g'), 'service_$1');
    // register: the realm type's plan flag carries the vendor prefix too
    result = result.replace(new RegExp(`\\b${prefix}_plan_is_not_limited\\b`, 'g'), 'service_plan_is_not_limited');
  }
  return result.replace(/\bclient_(?!extavatar)[a-z]*avatar\b/g, 'client_extavatar');
}

export interface OpenApiExtract {
  /** path → lower-case method → schema of the 200 answer */
  responses: Record<string, Record<string, Json>>;
  /** component schema name → schema (references point here, `#/components/schemas/<name>`) */
  schemas: Record<string, Json>;
}

export function extractOpenApi(yamlText: string): OpenApiExtract {
  const document = parse(withNeutralNames(yamlText), { maxAliasCount: -1 }) as JsonObject;
  const components = document['components'] as JsonObject;
  const sharedResponses = components['responses'] as JsonObject;
  const responses: Record<string, Record<string, Json>> = {};
  for (const [apiPath, operations] of Object.entries(document['paths'] as JsonObject)) {
    if (!isObject(operations)) continue;
    for (const [method, operation] of Object.entries(operations)) {
      if (!isObject(operation) || !isObject(operation['responses'])) continue;
      let success = operation['responses']['200'];
      const ref = isObject(success) ? success['$ref'] : undefined;
      // Shared answers (`SimpleSuccess` ...) are references to components/responses.
      if (typeof ref === 'string') success = sharedResponses[ref.replace('#/components/responses/', '')];
      const content = isObject(success) ? success['content'] : undefined;
      const json = isObject(content) ? content['application/json'] : undefined;
      const schema = isObject(json) ? json['schema'] : undefined;
      if (schema === undefined) continue;
      (responses[apiPath] ??= {})[method] = factsOf(schema);
    }
  }
  const schemas = Object.fromEntries(Object.entries(components['schemas'] as JsonObject).map(([name, value]) => [name, factsOf(value)]));
  return { responses, schemas };
}

export interface MarkdownCase {
  name: string;
  input: string;
  expected_output: string;
  translate_emoticons?: boolean;
  backend_only_rendering?: boolean;
}

export interface MarkdownExtract {
  regular_tests: MarkdownCase[];
  linkify_tests: [input: string, template: string, url: string][];
}

export function extractMarkdown(jsonText: string): MarkdownExtract {
  const fixture = JSON.parse(jsonText) as { regular_tests: JsonObject[]; linkify_tests: MarkdownExtract['linkify_tests'] };
  const regular_tests = fixture.regular_tests.map((testCase): MarkdownCase => {
    const facts: MarkdownCase = {
      name: String(testCase['name']),
      input: String(testCase['input']),
      expected_output: String(testCase['expected_output']),
    };
    if (typeof testCase['translate_emoticons'] === 'boolean') facts.translate_emoticons = testCase['translate_emoticons'];
    if (typeof testCase['backend_only_rendering'] === 'boolean') facts.backend_only_rendering = testCase['backend_only_rendering'];
    return facts;
  });
  return { regular_tests, linkify_tests: fixture.linkify_tests.map(([input, template, url]) => [input, template, url]) };
}

/** Each extract's file name and the text it should have, made from the reference directory. */
export function freshExtracts(dir: string): Record<string, string> {
  const serialize = (value: unknown): string => `${JSON.stringify(value, null, 1)}\n`;
  return {
    [OPENAPI_EXTRACT]: serialize(extractOpenApi(fs.readFileSync(path.join(dir, 'zulip-openapi.yaml'), 'utf8'))),
    [MARKDOWN_EXTRACT]: serialize(extractMarkdown(fs.readFileSync(path.join(dir, 'markdown_test_cases.json'), 'utf8'))),
  };
}

/** The names of the committed extracts that differ from a fresh extraction. */
export function staleExtracts(dir: string): string[] {
  return Object.entries(freshExtracts(dir))
    .filter(([name, text]) => {
      const file = path.join(FIXTURES_DIR, name);
      return !fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text;
    })
    .map(([name]) => name);
}

function main(argv: string[]): number {
  const dir = referenceDir();
  if (dir === null) {
    process.stderr.write('refresh-reference: set REFERENCE_DIR to the directory of the reference files\n');
    return 1;
  }
  if (argv.includes('--check')) {
    const stale = staleExtracts(dir);
    for (const name of stale) process.stderr.write(`refresh-reference: test/fixtures/${name} is not current\n`);
    return stale.length === 0 ? 0 : 1;
  }
  fs.mkdirSync(FIXTURES_DIR, { recursive: true });
  for (const [name, text] of Object.entries(freshExtracts(dir))) {
    fs.writeFileSync(path.join(FIXTURES_DIR, name), text);
    process.stdout.write(`wrote test/fixtures/${name} (${text.length} bytes)\n`);
  }
  return 0;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
