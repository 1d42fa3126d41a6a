import t from 'tap';
import { API_ROUTE_IDS } from '../../src/wire/routes';
import { startServer } from '../helpers/server';

// GET /api/v1/openapi.json: the API's description, made from the route table, served to anyone.

interface Operation {
  operationId: string;
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
