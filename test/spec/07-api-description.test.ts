import t from 'tap';
import { z } from 'zod';
import { API_ROUTE_IDS } from '../../src/wire/routes';
import { BYTES } from '../../workers/lib/route';
import { ROUTES } from '../../workers/routes';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';

// GET /api/v1/openapi.json: the API's description, made from the route table, served to anyone.

type JsonSchema = Record<string, unknown>;

interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
  security?: unknown[];
  parameters?: { name: string; in: string; required: boolean; schema?: unknown; content?: Record<string, { schema: unknown }> }[];
  requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> };
}
interface Description {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

t.test('the server describes every route it serves, without credentials', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const answer = await fetch(`${server.baseUrl}/api/v1/openapi.json`);
  t.strictSame(answer.status, 200);
  t.strictSame(answer.headers.get('content-type'), 'application/json');
  const description = (await answer.json()) as Description;
  t.strictSame(description.openapi, '3.1.0');
  t.strictSame(description.servers, [{ url: '/api/v1' }]);

  const described = Object.entries(description.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );
  t.strictSame([...described].sort(), [...API_ROUTE_IDS].sort(), 'exactly the route table');

  const draftEdit = description.paths['/drafts/{draft_id}']?.['patch'];
  t.strictSame(draftEdit?.parameters?.[0], {
    name: 'draft_id',
    in: 'path',
    required: true,
    content: { 'application/json': { schema: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } } },
  });
  const send = description.paths['/messages']?.['post']?.requestBody?.content['application/x-www-form-urlencoded']?.schema;
  t.strictSame(send?.properties['content'], { type: 'string' }, 'a string parameter is sent as it is');
  t.ok(send?.required.includes('content'), 'content is required to send');
  t.strictSame(description.paths['/server_settings']?.['get']?.security, [], 'open routes need no credentials');
  t.strictSame(description.paths['/users/me']?.['get']?.security, undefined, 'user routes take the default: Basic');
});

/** The 200 body schema of `METHOD /path` in the served description. */
function successSchema(description: Description, routeId: string): JsonSchema | undefined {
  const [method = '', apiPath = ''] = routeId.split(' ');
  return description.paths[apiPath]?.[method.toLowerCase()]?.responses['200']?.content?.['application/json']?.schema;
}

t.test("each route's 200 answer is described by its zod result schema, and real answers conform", async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const description = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as Description;

  for (const routeId of ['GET /users/me', 'POST /messages', 'GET /streams', 'POST /register'] as const) {
    const result = ROUTES[routeId].result;
    if (result === BYTES) throw new Error(`${routeId} answers bytes`);
    const { $schema: _dialect, ...expected } = z.toJSONSchema(result, {
      io: 'output',
      unrepresentable: 'any',
      // A pre-serialised value (a union of the server's JsonBytes and JsonText, which JSON
      // Schema shows as `{}`, with what it stands for) is described by the JSON it stands for.
      override: ({ jsonSchema }) => {
        const members = jsonSchema['anyOf'] as JsonSchema[] | undefined;
        const described = members?.at(-1);
        if (members?.length === 3 && described && members.slice(0, 2).every((member) => Object.keys(member).length === 0)) {
          delete jsonSchema['anyOf'];
          Object.assign(jsonSchema, described);
        }
      },
    }) as JsonSchema;
    t.strictSame(
      successSchema(description, routeId),
      {
        ...expected,
        properties: { result: { const: 'success' }, msg: { type: 'string' }, ...(expected['properties'] as JsonSchema) },
        required: ['result', 'msg', ...(expected['required'] as string[])],
      },
      `${routeId}: the envelope and z.toJSONSchema of its result schema`,
    );
  }

  // The described schema, read back into zod (z.fromJSONSchema), accepts what the server answers.
  const validator = (routeId: string) => z.fromJSONSchema(successSchema(description, routeId) ?? { not: {} });
  const me = await api.get('/users/me');
  t.equal(me.status, 200, me.text);
  t.strictSame(validator('GET /users/me').safeParse(me.body).success, true, 'GET /users/me as answered');
  const ownUser = validator('GET /users/me');
  t.strictSame(ownUser.safeParse({ ...me.body, is_moderator: false }).success, false, 'an added key breaks it');
  t.strictSame(ownUser.safeParse({ ...me.body, user_id: String(me.body['user_id']) }).success, false, 'a re-typed key breaks it');

  const queue = await api.post('/register', { event_types: ['message'] });
  t.equal(queue.status, 200, queue.text);
  t.strictSame(validator('POST /register').safeParse(queue.body).success, true, 'POST /register as answered');
  const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 'described', content: 'hello' });
  t.strictSame(validator('POST /messages').safeParse(sent.body).success, true, 'POST /messages as answered');
  const events = await api.get('/events', { queue_id: queue.body['queue_id'] as string, last_event_id: -1 });
  t.equal((events.body['events'] as unknown[]).length, 1, 'the message event');
  t.strictSame(validator('GET /events').safeParse(events.body).success, true, 'GET /events as answered, ids included');
  const streams = await api.get('/streams');
  t.strictSame(validator('GET /streams').safeParse(streams.body).success, true, 'GET /streams as answered');
});
