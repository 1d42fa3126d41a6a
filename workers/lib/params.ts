import { z } from 'zod';
import { ApiError, errors } from './errors';

/**
 * Wire decoding, done once at the edge (SPEC §Wire conventions 2, api-notes §b). Every raw
 * parameter is a string; JSON-typed ones (lists, objects, booleans, integers) are decoded here,
 * and for them the literal `null` means "absent". Plain strings are taken as sent.
 */

const NOT_JSON = 'not_json';

function decodeJson(value: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof value !== 'string') return value;
  if (value === 'null') return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: NOT_JSON, params: { notJson: true } });
    return z.NEVER;
  }
}

/** A JSON-encoded parameter validated by `schema`. */
export function json<T extends z.ZodType>(schema: T) {
  return z.preprocess(decodeJson, schema);
}

const safeInt = z.number().int().refine(Number.isSafeInteger, { message: 'unsafe_integer' });

/**
 * Typed wire parameters. Optionality and defaults go inside `json(...)`: the decoder turns
 * `null` into undefined, which the inner `.optional()` / `.default()` then accepts.
 */
export const param = {
  bool: (fallback?: boolean) => json(fallback === undefined ? z.boolean() : z.boolean().default(fallback)),
  optionalBool: () => json(z.boolean().optional()),
  int: () => json(safeInt),
  optionalInt: () => json(safeInt.optional()),
  /** Path IDs: non-negative integers. */
  id: () => json(safeInt.min(0)),
  intList: () => json(z.array(safeInt)),
  safeInt,
};

/** Turns the first zod issue into the API's error, with a fixed message per issue kind. */
export function issueToApiError(issue: z.core.$ZodIssue, raw: Record<string, string>): ApiError {
  const top = String(issue.path[0] ?? '');
  const name = issue.path.reduce<string>(
    (acc, key, i) => (i === 0 ? String(key) : typeof key === 'number' ? `${acc}[${key}]` : `${acc}["${String(key)}"]`),
    '',
  );
  if (issue.code === 'custom' && issue.message === NOT_JSON) return errors.notJson(top);
  if (raw[top] === undefined || (raw[top] === 'null' && issue.path.length === 1 && issue.code === 'invalid_type')) {
    return errors.missingArgument(top);
  }
  return errors.invalidArgument(top, describeIssue(issue, name));
}

function describeIssue(issue: z.core.$ZodIssue, name: string): string {
  switch (issue.code) {
    case 'invalid_type':
      return `${name} is not ${TYPE_NAMES[issue.expected] ?? `a valid ${issue.expected}`}`;
    case 'too_big':
      if (issue.origin === 'string') return `${name} is too long (limit: ${issue.maximum} characters)`;
      if (issue.origin === 'array') return `${name} has too many items (limit: ${issue.maximum})`;
      return `${name} is too large`;
    case 'too_small':
      if (issue.origin === 'string') return `${name} cannot be blank`;
      if (issue.origin === 'array') return `${name} needs at least ${issue.minimum} items`;
      return `${name} is too small`;
    case 'invalid_value':
      return `Invalid ${name}`;
    case 'invalid_union':
      return `${name} is not valid`;
    case 'custom':
      return issue.message === 'unsafe_integer' ? `${name} is not an integer` : issue.message;
    default:
      return `Invalid ${name}`;
  }
}

const TYPE_NAMES: Record<string, string> = {
  boolean: 'a boolean',
  number: 'an integer',
  int: 'an integer',
  string: 'a string',
  array: 'a list',
  object: 'a dict',
  record: 'a dict',
};

export interface ParsedParams<T> {
  values: T;
  ignored: string[];
}

/**
 * Validates a request's parameters against a route schema. `aliases` maps deprecated names to
 * the current ones (`subject` → `topic`); sending both is REQUEST_CONFUSING_VAR. Unknown names
 * are returned, sorted, for `ignored_parameters_unsupported` (feature level 167).
 */
export function parseParams<S extends z.ZodObject>(
  schema: S,
  aliases: Readonly<Record<string, string>>,
  raw: Record<string, string>,
  pathParams: Record<string, string>,
): ParsedParams<z.output<S>> {
  const values: Record<string, string> = { ...raw };
  for (const [alias, canonical] of Object.entries(aliases)) {
    if (values[alias] === undefined) continue;
    if (values[canonical] !== undefined) throw errors.confusingArguments(canonical, alias);
    values[canonical] = values[alias];
    delete values[alias];
  }
  Object.assign(values, pathParams);
  const known = schema.shape;
  const ignored = Object.keys(raw)
    .filter((key) => !(key in known) && !(key in aliases))
    .sort();
  const result = schema.safeParse(values);
  if (!result.success) throw issueToApiError(result.error.issues[0] as z.core.$ZodIssue, values);
  return { values: result.data, ignored };
}
