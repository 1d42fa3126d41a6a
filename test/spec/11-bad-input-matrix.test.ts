import fc from 'fast-check';
import t from 'tap';
import { request, type ApiResponse } from '../helpers/http';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { arbitraryOf, type JsonSchema } from '../helpers/schema-arbitrary';
import { startServer } from '../helpers/server';

// No input crashes the server: every API route (from the server's own description of its
// route table) × a corpus of bad values in each of its parameters, and fast-check values drawn
// for each parameter, get a JSON answer below 500, and the server stays healthy. Bounded: a
// few thousand requests, each route once per value.

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  /** A plain parameter's schema; a JSON-encoded one has `contentMediaType` or comes in `content`. */
  schema?: JsonSchema & { contentMediaType?: string };
  content?: Record<string, { schema: JsonSchema }>;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: {
    content: Record<string, { schema: { properties: Record<string, JsonSchema & { contentMediaType?: string }>; required?: string[] } }>;
  };
}

/** Routes that would end the test's own credentials whatever their parameters. */
const SPARED = new Set(['DELETE /users/me', 'POST /users/me/api_key/regenerate']);

const DEEP_JSON = '['.repeat(10_000) + ']'.repeat(10_000);
/** Values no parameter of the API accepts as they are, each a way clients or attackers go wrong. */
const CORPUS: [label: string, value: string][] = [
  ['negative', '-1'],
  ['fraction', '1.5'],
  ['NaN', 'NaN'],
  ['1e400', '1e400'],
  ['1e308', '1e308'],
  ['beyond 2^53', '9007199254740993'],
  ['-2^63', '-9223372036854775808'],
  ['empty', ''],
  ['null', 'null'],
  ['true', 'true'],
  ['object', '{"a":{"b":[1,2,{"c":null}]}}'],
  ['list of strings', '["x","y"]'],
  ['1 MB string', 'x'.repeat(1_000_000)],
  ['control and bidi characters', 'a\u0000b\u0007c\u202ed\u2066e\ufeff'],
  ['SQL', "1'; DROP TABLE messages; --"],
  ['LIKE wildcards', '%_%\\'],
  ['JSON nested 10,000 deep', DEEP_JSON],
  ['path traversal', '../../../../etc/passwd'],
];

/** Bad values for a path segment, sent as they are (already encoded). */
const PATH_CORPUS = ['-1', '1.5', '%201%20', '1e400', '9007199254740993', '..%2F..%2Fetc%2Fpasswd', '%00', 'x'.repeat(5000), '%E2%80%AE1'];

const QUERY_VALUE_LIMIT = 2_000;

/** The answer, or a status 0 answer saying how the connection failed (a failure to judge). */
async function send(spec: Parameters<typeof request>[0]): Promise<ApiResponse> {
  try {
    return await request(spec);
  } catch (error) {
    return { status: 0, headers: {}, body: { unparsable: String(error) }, text: `no answer: ${String(error)}` };
  }
}

function fill(path: string, value: string): string {
  return path.replace(/\{[a-z_]+\}/g, value);
}

interface RouteParameters {
  method: string;
  path: string;
  /** Query or body parameter names (path parameters aside). */
  names: string[];
  inQuery: boolean;
}

/** Every described route but the spared ones, with the names of its parameters. */
function describedRoutes(paths: Record<string, Record<string, Operation>>): RouteParameters[] {
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .map(([lower, operation]) => {
        const method = lower.toUpperCase();
        const body = operation.requestBody?.content['application/x-www-form-urlencoded']?.schema.properties ?? {};
        const names = [...(operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name), ...Object.keys(body)];
        return { method, path, names, inQuery: method === 'GET' || method === 'DELETE' };
      })
      .filter((route) => !SPARED.has(`${route.method} ${route.path}`)),
  );
}

/** Values drawn from each route's parameter schemas: a few per route here; more, and other seeds, by hand. */
const SCHEMA_RUNS = Number(process.env['SCHEMA_RUNS'] ?? 6);
const SCHEMA_SEED = Number(process.env['SCHEMA_SEED'] ?? 20);

interface DescribedParameter {
  name: string;
  in: string;
  required: boolean;
  schema: JsonSchema;
  /** Sent JSON-encoded (SPEC §Endpoints: int[] and other non-strings). */
  json: boolean;
}

/** Every parameter of an operation (path, query and form body) with its schema. */
function describedParameters(operation: Operation): DescribedParameter[] {
  const listed = (operation.parameters ?? []).map((p) => ({
    name: p.name,
    in: p.in,
    required: p.required === true,
    schema: p.schema ?? p.content?.['application/json']?.schema ?? {},
    json: p.content !== undefined || p.schema?.contentMediaType === 'application/json',
  }));
  const body = operation.requestBody?.content['application/x-www-form-urlencoded']?.schema;
  const inBody = Object.entries(body?.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'body',
    required: (body?.required ?? []).includes(name),
    schema,
    json: schema.contentMediaType === 'application/json',
  }));
  return [...listed, ...inBody];
}

/** A realistic path: each path parameter a small number (or `me` for users). */
function plainPath(path: string): string {
  return path.replace(/\{([a-z_]+)\}/g, (_, name: string) => (name === 'user_id_or_email' ? 'me' : '1'));
}

t.test('every route answers bad input with a JSON error below 500', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  await createMember(owner, 'Alice');
  const description = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };

  const statuses = new Map<number, number>();
  const failures: string[] = [];
  let cases = 0;
  const judge = (what: string, answer: ApiResponse): void => {
    cases++;
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    const json = !('unparsable' in answer.body);
    const enveloped = answer.status === 200 || (answer.body['result'] === 'error' && typeof answer.body['msg'] === 'string');
    if (answer.status === 0 || answer.status >= 500 || !json || !enveloped)
      failures.push(`${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
  };

  // Parameters of each route with the corpus, one parameter at a time.
  const routes = describedRoutes(description.paths);
  for (const { method, path, names, inQuery } of routes) {
    for (const name of names) {
      for (const [label, value] of CORPUS) {
        // A query string is part of the request head, which this HTTP library caps at 4 KB
        // (README, limits of the HTTP front end): long values travel in bodies only.
        if (inQuery && value.length > QUERY_VALUE_LIMIT) continue;
        const answer = await send({
          baseUrl: server.baseUrl,
          method,
          path: `/api/v1${plainPath(path)}`,
          params: { [name]: value },
          encoding: inQuery ? 'query' : 'form',
          auth: server.owner,
        });
        judge(`${method} ${path} ${name}=${label}`, answer);
      }
    }
    if (path.includes('{')) {
      for (const value of PATH_CORPUS) {
        judge(
          `${method} ${path} path=${value.slice(0, 20)}`,
          await send({ baseUrl: server.baseUrl, method, path: `/api/v1${fill(path, value)}`, auth: server.owner }),
        );
      }
    }
  }

  // Values drawn by fast-check (fixed seed: the same cases every run) for every parameter.
  const drawn = fc.sample(fc.oneof(fc.string(), fc.json(), fc.integer(), fc.double().map(String), fc.string({ unit: 'binary' })), {
    seed: 20,
    numRuns: 8,
  });
  for (const { method, path, names, inQuery } of routes) {
    if (names.length === 0) continue;
    for (const value of drawn) {
      const params = Object.fromEntries(names.map((name) => [name, String(value)]));
      const spec = {
        baseUrl: server.baseUrl,
        method,
        path: `/api/v1${plainPath(path)}`,
        params,
        encoding: inQuery ? 'query' : 'form',
        auth: server.owner,
      } as const;
      judge(`${method} ${path} drawn ${JSON.stringify(value).slice(0, 40)}`, await send(spec));
    }
  }

  // Values of each route's own parameter schemas (from its zod schema, as described): the
  // declared shapes with their edge cases, so the requests get past parsing to the handlers.
  for (const [path, methods] of Object.entries(description.paths)) {
    for (const [lower, operation] of Object.entries(methods)) {
      const method = lower.toUpperCase();
      if (SPARED.has(`${method} ${path}`)) continue;
      const described = describedParameters(operation);
      if (described.length === 0) continue;
      const shapes = fc.record(Object.fromEntries(described.map((p) => [p.name, arbitraryOf(p.schema)])), {
        requiredKeys: described.filter((p) => p.required).map((p) => p.name),
      });
      for (const drawn of fc.sample(shapes, { seed: SCHEMA_SEED, numRuns: SCHEMA_RUNS })) {
        const values = drawn as Record<string, unknown>;
        const encoded = (p: DescribedParameter): string => (p.json ? JSON.stringify(values[p.name]) : String(values[p.name]));
        const present = described.filter((p) => p.name in values);
        const filled = path.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
          const parameter = present.find((p) => p.name === name);
          return parameter ? encodeURIComponent(encoded(parameter)) : '1';
        });
        const inQuery = method === 'GET' || method === 'DELETE';
        const params = Object.fromEntries(present.filter((p) => p.in !== 'path').map((p) => [p.name, encoded(p)]));
        const spec = {
          baseUrl: server.baseUrl,
          method,
          path: `/api/v1${filled}`,
          params,
          encoding: inQuery ? 'query' : 'form',
          auth: server.owner,
        } as const;
        judge(`${method} ${path} schema ${JSON.stringify(values).slice(0, 80)}`, await send(spec));
      }
    }
  }

  // Shapes of the request itself: invalid UTF-8, duplicate and very many parameters.
  const raw = async (what: string, rawBody: Buffer | string): Promise<void> =>
    judge(
      what,
      await send({
        baseUrl: server.baseUrl,
        method: 'POST',
        path: '/api/v1/messages',
        rawBody,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        auth: server.owner,
      }),
    );
  await raw(
    'invalid UTF-8',
    Buffer.concat([Buffer.from('type=stream&to=general&topic=t&content='), Buffer.from([0xc3, 0x28, 0xff, 0xfe])]),
  );
  await raw('percent-encoded invalid UTF-8', 'type=stream&to=general&topic=%C3%28&content=%FF%FE');
  await raw('duplicate parameters', 'type=stream&type=direct&to=general&to=1&topic=t&content=a&content=b');
  await raw('10,000 parameters', Array.from({ length: 10_000 }, (_, i) => `p${i}=${i}`).join('&'));
  await raw('a deep JSON list', `type=direct&to=${encodeURIComponent(DEEP_JSON)}&content=x`);
  judge('an unknown route', await send({ baseUrl: server.baseUrl, method: 'GET', path: '/api/v1/no/such/route', auth: server.owner }));
  judge(
    'a known route, unknown method',
    await send({ baseUrl: server.baseUrl, method: 'PUT', path: '/api/v1/messages', auth: server.owner }),
  );

  const histogram = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`);
  t.comment(`${cases} cases: ${histogram.join(', ')}`);
  t.ok(cases > 3000, `${cases} cases run`);
  t.strictSame(failures, [], 'no 5xx, no answer outside the JSON envelope');
  const health = await request({ baseUrl: server.baseUrl, method: 'GET', path: '/health' });
  t.strictSame(health.status, 200, 'the server is healthy afterwards');
  const me = await owner.get('/users/me');
  t.strictSame([me.status, me.body['email']], [200, server.owner.email], 'and still serves its owner');
});
