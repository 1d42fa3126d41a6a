import { z } from 'zod';
import { ApiError, errors } from './errors';

/**
 * Wire decoding, done once at the edge (SPEC §Wire conventions 2, api-notes §b). Every raw
 * parameter is a string; JSON-typed ones (lists, objects, booleans, integers) are decoded here,
 * and for them the literal `null` means "absent". Plain strings are taken as sent.
 */

const NOT_JSON = 'not_json';

/**
 * Most items a JSON list parameter may hold, checked before any item is looked at: a request's
 * work on a shard must stay bounded whatever its size (lists that cost more per item have lower
 * limits of their own).
 */
export const MAX_LIST_ITEMS = 10_000;
/** Most distinct message IDs one request may name (as GET /messages fetches at most 5000). */
export const MAX_MESSAGE_IDS = 5000;

function decodeJson(value: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof value !== 'string') return value;
  if (value === 'null') return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(value) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: NOT_JSON, params: { notJson: true } });
    return z.NEVER;
  }
  if (Array.isArray(decoded) && decoded.length > MAX_LIST_ITEMS) {
    ctx.addIssue({ code: 'too_big', origin: 'array', maximum: MAX_LIST_ITEMS, inclusive: true, input: decoded, message: 'too_many_items' });
    return z.NEVER;
  }
  return decoded;
}

/** The list without repeats, first occurrences kept in order. */
export function distinct<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

/** A list whose repeats are dropped before `max` distinct items are allowed. */
function distinctList<T extends z.ZodType>(item: T, max: number) {
  return z
    .array(item)
    .transform((items) => distinct(items))
    .pipe(z.array(z.custom<z.output<T>>()).max(max));
}

/** A JSON-encoded parameter validated by `schema`. */
export function json<T extends z.ZodType>(schema: T) {
  return z.preprocess(decodeJson, schema);
}

/** The schemas `param.id()` made, so a path segment is checked as its route declares it. */
const idSchemas = new WeakSet<z.ZodType>();

const safeInt = z.number().int().refine(Number.isSafeInteger, { message: 'unsafe_integer' });

/** Latest timestamp accepted, 9999-12-31T23:59:59Z: past it a time is no date (nor a column's integer). */
export const MAX_TIMESTAMP = 253_402_300_799;
/** UNIX seconds, possibly fractional (openapi Draft `timestamp`). */
const secondsTimestamp = z.number().max(MAX_TIMESTAMP);

/**
 * Typed wire parameters. Optionality and defaults go inside `json(...)`: the decoder turns
 * `null` into undefined, which the inner `.optional()` / `.default()` then accepts.
 */
export const param = {
  bool: (fallback?: boolean) => json(fallback === undefined ? z.boolean() : z.boolean().default(fallback)),
  optionalBool: () => json(z.boolean().optional()),
  int: () => json(safeInt),
  optionalInt: () => json(safeInt.optional()),
  /** Whole UNIX seconds, at most MAX_TIMESTAMP. */
  timestamp: () => json(safeInt.max(MAX_TIMESTAMP)),
  optionalTimestamp: () => json(safeInt.max(MAX_TIMESTAMP).optional()),
  secondsTimestamp,
  /** IDs: non-negative integers; in a path, digits only (see `parseParams`). */
  id: () => {
    const schema = json(safeInt.min(0));
    idSchemas.add(schema);
    return schema;
  },
  intList: () => json(z.array(safeInt)),
  /** A set of IDs: repeats dropped, at most `max` distinct ones. */
  idSet: (max = MAX_LIST_ITEMS) => json(distinctList(safeInt, max)),
  /** Message IDs: repeats dropped, at most MAX_MESSAGE_IDS. */
  messageIds: () => json(distinctList(safeInt, MAX_MESSAGE_IDS)),
  /** Users as IDs or emails (`principals`): repeats dropped. */
  principals: () => json(distinctList(z.union([safeInt, z.string()]), MAX_LIST_ITEMS).optional()),
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

/**
 * A path ID is digits only, as the public server's URL patterns (`<int:...>`) match them: " 1 ",
 * "1e0" or "+1" make a URL of no route (404), though JSON would read them as 1.
 */
function isPathId(value: string): boolean {
  return /^[0-9]{1,16}$/.test(value) && Number.isSafeInteger(Number(value));
}

/**
 * Whether a path segment fails the route's own declaration of it: a `param.id()` (alone, or in a
 * union with literals such as `me`) takes digits only, or one of those literals.
 */
function refusesAsPathId(field: z.ZodType | undefined, value: string): boolean {
  if (field === undefined || isPathId(value)) return false;
  if (idSchemas.has(field)) return true;
  if (!(field instanceof z.ZodUnion)) return false;
  const options = field.options as readonly z.ZodType[];
  if (!options.some((option) => idSchemas.has(option))) return false;
  return !options.some((option) => option instanceof z.ZodLiteral && option.values.has(value));
}

export interface ParsedParams<T> {
  values: T;
  ignored: readonly string[];
}

// Most requests send only what their endpoint takes; a parked poll need not hold an array of its own.
const NONE_IGNORED: readonly string[] = Object.freeze([]);

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
  for (const alias in aliases) {
    if (values[alias] === undefined) continue;
    const canonical = aliases[alias] as string;
    if (values[canonical] !== undefined) throw errors.confusingArguments(canonical, alias);
    values[canonical] = values[alias];
    delete values[alias];
  }
  const known = schema.shape;
  for (const name in pathParams) {
    const value = pathParams[name] as string;
    if (refusesAsPathId(known[name] as z.ZodType | undefined, value)) throw errors.urlNotFound();
    values[name] = value;
  }
  let unknown: string[] | undefined;
  for (const key in raw) if (!(key in known) && !(key in aliases)) (unknown ??= []).push(key);
  const ignored = unknown ? unknown.sort() : NONE_IGNORED;
  const parsed = parseSent(schema, values);
  if (parsed !== undefined) return { values: parsed as z.output<S>, ignored };
  const result = schema.safeParse(values);
  if (!result.success) throw issueToApiError(result.error.issues[0] as z.core.$ZodIssue, values);
  return { values: result.data, ignored };
}

/**
 * What a route's schema makes of each of its parameters when the request leaves it out, found
 * once per schema: most requests send a few of a route's many optional parameters (a poll sends
 * 2 of GET /events' 10), and running zod on every absent one was most of a poll's allocations.
 */
interface AbsentPlan {
  keys: readonly string[];
  /** Absent, these parse to a primitive (a default such as `false`), set in the output as is. */
  constants: ReadonlyMap<string, unknown>;
  /** Absent, these leave no key in the output (optional, no default). */
  omitted: ReadonlySet<string>;
  /**
   * Schemas of the parameters sent (and of those whose default is a fresh list or dict), by
   * which those are: bit i stands for `keys[i]`.
   */
  picked: Map<number, z.ZodObject>;
}

/** Distinct sets of sent parameters a route keeps a schema for; past it, the whole schema parses. */
const MAX_PICKED_SCHEMAS = 64;
const absentPlans = new WeakMap<z.ZodObject, AbsentPlan | null>();

function absentPlanOf(schema: z.ZodObject): AbsentPlan | null {
  let plan = absentPlans.get(schema);
  if (plan !== undefined) return plan;
  plan = null;
  const keys = Object.keys(schema.shape);
  // Object-level checks see every key, and a catchall keeps unknown ones: parse those whole.
  // Past 53 parameters a set of them is no longer a number's bits.
  if (!schema._zod.def.checks?.length && schema._zod.def.catchall === undefined && keys.length <= 53) {
    const constants = new Map<string, unknown>();
    const omitted = new Set<string>();
    for (const key of keys) {
      const alone = z.object({ [key]: schema.shape[key] as z.ZodType }).safeParse({});
      if (!alone.success) continue; // required: a request without it parses whole, for its error
      if (!(key in alone.data)) omitted.add(key);
      else if (typeof alone.data[key] !== 'object' || alone.data[key] === null) constants.set(key, alone.data[key]);
    }
    plan = { keys, constants, omitted, picked: new Map() };
  }
  absentPlans.set(schema, plan);
  return plan;
}

/**
 * The schema's output for `values`, parsing only the parameters sent: the same output as
 * `schema.parse` (same keys, in the schema's order), or undefined when the whole schema must
 * parse (a required parameter missing, an invalid value: that parse finds the first issue).
 */
function parseSent(schema: z.ZodObject, values: Record<string, string>): Record<string, unknown> | undefined {
  const plan = absentPlanOf(schema);
  if (plan === null) return undefined;
  let sent = 0;
  for (let i = 0; i < plan.keys.length; i++) {
    const key = plan.keys[i] as string;
    if (values[key] !== undefined || !(plan.constants.has(key) || plan.omitted.has(key))) sent += 2 ** i;
  }
  let picked = plan.picked.get(sent);
  if (picked === undefined) {
    if (plan.picked.size >= MAX_PICKED_SCHEMAS) return undefined;
    const mask: Record<string, true> = {};
    plan.keys.forEach((key, i) => {
      if (Math.floor(sent / 2 ** i) % 2 === 1) mask[key] = true;
    });
    picked = schema.pick(mask);
    plan.picked.set(sent, picked);
  }
  const result = picked.safeParse(values);
  if (!result.success) return undefined;
  const output: Record<string, unknown> = {};
  for (const key of plan.keys) {
    if (key in result.data) output[key] = result.data[key];
    else if (values[key] === undefined && plan.constants.has(key)) output[key] = plan.constants.get(key);
  }
  return output;
}
