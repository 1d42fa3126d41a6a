import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './server';

/**
 * Checks response bodies against the public API's response schemas, as extracted from its
 * reference OpenAPI file into test/fixtures/openapi-responses.json (test/reference/extract.ts),
 * with the spec's neutral names.
 *
 * The file describes objects the way its own server's checker reads them: an `allOf` whose
 * members add properties (a member may list a property as `{}`, deferring to another
 * member's definition) and whose last member often closes the object with
 * `additionalProperties: false`. So `allOf` members are merged into one schema first, then
 * validated; this is the subset of OpenAPI 3 the file uses for responses.
 */

export interface Schema {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}

interface ResponseSchemas {
  responses: Record<string, Record<string, Schema>>;
  schemas: Record<string, Schema>;
}

const EXTRACT_FILE = path.join(REPO_ROOT, 'test', 'fixtures', 'openapi-responses.json');

let loaded: ResponseSchemas | null = null;

function openApi(): ResponseSchemas {
  loaded ??= JSON.parse(fs.readFileSync(EXTRACT_FILE, 'utf8')) as ResponseSchemas;
  return loaded;
}

function resolve(schema: Schema): Schema {
  let current = schema;
  while (current.$ref) {
    const name = current.$ref.replace('#/components/schemas/', '');
    const target = openApi().schemas[name];
    if (!target) throw new Error(`unknown schema reference ${current.$ref}`);
    current = target;
  }
  return current;
}

/** One schema from an `allOf` (recursively), properties merged by name. */
export function merged(schema: Schema): Schema {
  const resolved = resolve(schema);
  if (!resolved.allOf) return resolved;
  const result: Schema = {};
  for (const part of resolved.allOf.map(merged)) {
    if (part.type !== undefined) result.type = part.type;
    if (part.nullable) result.nullable = true;
    if (part.enum) result.enum = part.enum;
    if (part.items) result.items = result.items ? { allOf: [result.items, part.items] } : part.items;
    if (part.oneOf) result.oneOf = part.oneOf;
    if (part.anyOf) result.anyOf = part.anyOf;
    if (part.required) result.required = [...new Set([...(result.required ?? []), ...part.required])];
    if (part.additionalProperties !== undefined) result.additionalProperties = part.additionalProperties;
    if (part.properties) {
      result.properties ??= {};
      for (const [key, value] of Object.entries(part.properties)) {
        const earlier = result.properties[key];
        result.properties[key] = earlier ? { allOf: [earlier, value] } : value;
      }
    }
  }
  return result;
}

/** Every way `value` breaks `schema`, as `path: problem` lines (empty when it conforms). */
export function violations(schema: Schema, value: unknown, at = '$'): string[] {
  const s = merged(schema);
  if (value === null) return s.nullable || (s.type === undefined && !s.oneOf && !s.anyOf) ? [] : [`${at}: null`];
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives) {
    const failures = alternatives.map((alternative) => violations(alternative, value, at));
    if (!failures.some((f) => f.length === 0)) {
      return [`${at}: matches none of ${alternatives.length} alternatives (${failures.map((f) => f[0]).join(' | ')})`];
    }
  }
  if (s.enum && !s.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} not in ${JSON.stringify(s.enum)}`];
  switch (s.type) {
    case 'integer':
      return Number.isInteger(value) ? [] : [`${at}: ${JSON.stringify(value)} is not an integer`];
    case 'number':
      return typeof value === 'number' ? [] : [`${at}: ${JSON.stringify(value)} is not a number`];
    case 'string':
      return typeof value === 'string' ? [] : [`${at}: ${JSON.stringify(value)} is not a string`];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${at}: ${JSON.stringify(value)} is not a boolean`];
    case 'array':
      if (!Array.isArray(value)) return [`${at}: not an array`];
      return s.items ? value.flatMap((item, i) => violations(s.items as Schema, item, `${at}[${i}]`)) : [];
  }
  if (s.type === 'object' || s.properties || s.additionalProperties !== undefined) {
    if (typeof value !== 'object' || Array.isArray(value)) return [`${at}: not an object`];
    const object = value as Record<string, unknown>;
    const problems = (s.required ?? []).filter((key) => !(key in object)).map((key) => `${at}.${key}: missing`);
    for (const [key, item] of Object.entries(object)) {
      const property = s.properties?.[key];
      if (property) problems.push(...violations(property, item, `${at}.${key}`));
      else if (s.additionalProperties === false) problems.push(`${at}.${key}: not in the schema`);
      else if (typeof s.additionalProperties === 'object') problems.push(...violations(s.additionalProperties, item, `${at}.${key}`));
    }
    return problems;
  }
  return [];
}

/** The schema of an operation's 200 response, e.g. `responseSchema('get', '/messages')`. */
export function responseSchema(method: string, apiPath: string): Schema {
  const schema = openApi().responses[apiPath]?.[method.toLowerCase()];
  if (!schema) throw new Error(`no 200 response schema for ${method} ${apiPath} in the reference extract`);
  return schema;
}

/** Problems of a success body of `METHOD /path` (the path as the reference file writes it). */
export function responseViolations(method: string, apiPath: string, body: unknown): string[] {
  return violations(responseSchema(method, apiPath), body);
}

/** A named component schema (e.g. `MessagesBase`), for checking objects inside other answers. */
export function componentSchema(name: string): Schema {
  return { $ref: `#/components/schemas/${name}` };
}
