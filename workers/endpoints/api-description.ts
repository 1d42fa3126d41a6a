import { z } from 'zod';
import { clientEventSchema } from '../events/types';
import { BinaryReply } from '../lib/binary-reply';
import { isSerialized } from '../lib/contract';
import { BYTES, openRoute, type ResultSchema, type Route } from '../lib/route';
import { SERVICE_FEATURE_LEVEL, SERVICE_VERSION } from '../lib/version';

/**
 * GET /openapi.json: the API this server speaks, as an OpenAPI 3.1 document made from the
 * route table itself (each route's method, path, authentication, zod parameter schema and zod
 * result schema), so it cannot drift from what the server accepts and answers. Parameters follow the wire conventions: every
 * value travels as a string, and values that are not strings are JSON-encoded (described with
 * an `application/json` content, as the public API's own description does).
 */
type JsonSchema = Record<string, unknown>;

const ENVELOPE_SUCCESS = { result: { const: 'success' }, msg: { type: 'string' } };
const ENVELOPE_ERROR: JsonSchema = {
  type: 'object',
  properties: { result: { const: 'error' }, msg: { type: 'string' }, code: { type: 'string' } },
  required: ['result', 'msg', 'code'],
};

/** The JSON Schema of a zod result schema (OpenAPI 3.1 takes JSON Schema 2020-12 as it is). */
export function resultJsonSchema(result: z.ZodObject): JsonSchema {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(result, {
    io: 'output',
    unrepresentable: 'any',
    // An event's payload is a strict object of the union; the queue numbers it with `id` beside.
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === clientEventSchema) withEventIds(jsonSchema);
      // A pre-serialised value travels as the JSON its last member describes.
      if (isSerialized(zodSchema)) {
        const described = (jsonSchema['anyOf'] as JsonSchema[]).at(-1);
        delete jsonSchema['anyOf'];
        Object.assign(jsonSchema, described);
      }
    },
  }) as JsonSchema;
  return schema;
}

function withEventIds(schema: JsonSchema): void {
  const alternatives = (schema['oneOf'] ?? schema['anyOf']) as JsonSchema[] | undefined;
  if (alternatives) {
    for (const alternative of alternatives) withEventIds(alternative);
    return;
  }
  schema['properties'] = { id: { type: 'integer' }, ...(schema['properties'] as JsonSchema) };
  schema['required'] = ['id', ...((schema['required'] ?? []) as string[])];
}

/** A 200 answer: the envelope's `result` and `msg`, and the route's result beside them. */
function successResponse(result: ResultSchema): JsonSchema {
  if (result === BYTES) return { description: 'The bytes served (a file, an image or a redirect)' };
  const schema = resultJsonSchema(result);
  const body = {
    ...schema,
    properties: { ...ENVELOPE_SUCCESS, ...(schema['properties'] as JsonSchema) },
    required: ['result', 'msg', ...((schema['required'] ?? []) as string[])],
  };
  return { description: 'Success', content: { 'application/json': { schema: body } } };
}

function parameterSchemas(route: Route): { properties: Record<string, JsonSchema>; required: Set<string> } {
  const schema = z.toJSONSchema(route.params, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  return { properties, required: new Set((schema['required'] ?? []) as string[]) };
}

/** A parameter's value description: strings as they are, anything else JSON-encoded. */
function valueOf(schema: JsonSchema): JsonSchema {
  return schema['type'] === 'string' ? { schema } : { content: { 'application/json': { schema } } };
}

function operation(routeId: string, route: Route): [path: string, method: string, description: JsonSchema] {
  const [method = '', apiPath = ''] = routeId.split(' ');
  const { properties, required } = parameterSchemas(route);
  const inPath = new Set([...apiPath.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? ''));
  const inQuery = method === 'GET' || method === 'DELETE';
  const parameters: JsonSchema[] = [];
  const body: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const where = inPath.has(name) ? 'path' : inQuery ? 'query' : null;
    if (where) parameters.push({ name, in: where, required: where === 'path' || required.has(name), ...valueOf(schema) });
    else body[name] = schema['type'] === 'string' ? schema : { ...schema, contentMediaType: 'application/json' };
  }
  const description: JsonSchema = {
    operationId: routeId
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase(),
    ...(route.auth === 'user' ? {} : { security: route.auth === 'none' ? [] : [{}, { basicAuth: [] }] }),
    ...(parameters.length ? { parameters } : {}),
    responses: {
      '200': successResponse(route.result),
      '400': { description: 'Bad request', content: { 'application/json': { schema: ENVELOPE_ERROR } } },
    },
  };
  if (Object.keys(body).length) {
    const bodySchema = { type: 'object', properties: body, required: [...required].filter((name) => name in body) };
    description['requestBody'] = {
      content: { 'application/x-www-form-urlencoded': { schema: bodySchema }, 'multipart/form-data': { schema: bodySchema } },
    };
  }
  return [apiPath, method.toLowerCase(), description];
}

export function describeApi(routes: Readonly<Record<string, Route>>): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [routeId, route] of Object.entries(routes)) {
    const [apiPath, method, description] = operation(routeId, route);
    (paths[apiPath] ??= {})[method] = description;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Team chat API',
      version: SERVICE_VERSION,
      description: `The team-chat HTTP API served here (feature level ${SERVICE_FEATURE_LEVEL}).`,
    },
    servers: [{ url: '/api/v1' }],
    security: [{ basicAuth: [] }],
    components: { securitySchemes: { basicAuth: { type: 'http', scheme: 'basic', description: 'email (or user ID) and API key' } } },
    paths,
  };
}

/**
 * The route serving the description. It is handed the table rather than importing it, since
 * the table imports every endpoint (this one included).
 */
export function apiDescriptionRoute(routes: () => Readonly<Record<string, Route>>): Route {
  let bytes: Uint8Array | null = null;
  return openRoute(z.object({}), BYTES, () => {
    bytes ??= new TextEncoder().encode(JSON.stringify(describeApi(routes())));
    return new BinaryReply(200, 'application/json', bytes);
  });
}
