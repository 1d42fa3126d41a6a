import fc from 'fast-check';

/**
 * fast-check arbitraries for the JSON Schemas the server describes its parameters with
 * (GET /api/v1/openapi.json, generated from each route's zod schema): values of the declared
 * shape, edge cases included (bounds, empty and long strings, odd characters), so generated
 * requests get past parsing and reach the handlers. The subset zod 4 emits: type (or a list of
 * types), enum, const, anyOf/oneOf, numeric bounds, string lengths, arrays with items or
 * prefixItems and item counts, objects with properties, required and additionalProperties.
 */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  items?: JsonSchema | false;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
}

// Deep enough for every described shape (lists of objects of lists); no schema here recurses.
const MAX_DEPTH = 4;
// A few items exercise the loops without making each request megabytes.
const MAX_GENERATED_ITEMS = 5;

const edgyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('', ' ', '%', '_', '\\', "'", '"', '\u202e', '\u0000', 'x'.repeat(1000), 'me', '@role:members', '**', '```'),
);

function numberOf(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? Number.MIN_SAFE_INTEGER;
  const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
  const edges = fc.constantFrom(min, max, 0, 1, -1, 2 ** 31, -(2 ** 31)).filter((n) => n >= min && n <= max);
  const any = integer
    ? fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) })
    : fc.double({ min, max, noNaN: true });
  return fc.oneof(edges, any, fc.integer({ min: Math.max(min, -3), max: Math.min(max, 1000) }));
}

function ofType(schema: JsonSchema, type: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string': {
      const min = schema.minLength ?? 0;
      const max = schema.maxLength ?? Infinity;
      return edgyString.filter((s) => s.length >= min && s.length <= max);
    }
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (schema.prefixItems) return fc.tuple(...schema.prefixItems.map((item) => arbitraryOf(item, depth + 1)));
      const item =
        schema.items === undefined || schema.items === false ? fc.oneof(edgyString, fc.integer()) : arbitraryOf(schema.items, depth + 1);
      const minLength = schema.minItems ?? 0;
      return fc.array(item, {
        minLength,
        maxLength: Math.max(minLength, Math.min(schema.maxItems ?? MAX_GENERATED_ITEMS, MAX_GENERATED_ITEMS)),
      });
    }
    default:
      return objectOf(schema, depth);
  }
}

function objectOf(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const named = fc.record(
    Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, arbitraryOf(property, depth + 1)])),
    { requiredKeys: schema.required ?? [] },
  );
  const extra = schema.additionalProperties;
  if (extra === undefined || extra === false) return named;
  const value = extra === true ? fc.oneof(edgyString, fc.integer(), fc.boolean()) : arbitraryOf(extra, depth + 1);
  return fc.tuple(named, fc.dictionary(edgyString, value, { maxKeys: MAX_GENERATED_ITEMS })).map(([a, b]) => ({ ...b, ...a }));
}

/** Values of `schema`'s shape; beyond MAX_DEPTH (or for `{}`), anything JSON. */
export function arbitraryOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > MAX_DEPTH) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => arbitraryOf(alternative, depth)));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => ofType(schema, type, depth)));
  if (schema.type !== undefined) return ofType(schema, schema.type, depth);
  if (schema.properties || schema.additionalProperties !== undefined) return objectOf(schema, depth);
  return fc.jsonValue({ maxDepth: 2 });
}
