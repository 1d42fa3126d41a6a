import fc from 'fast-check';
import t from 'tap';
import { request, type ApiResponse } from '../helpers/http';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';

// No input crashes the server: every API route (from the server's own description of its
// route table) × a corpus of bad values in each of its parameters, and fast-check values drawn
// for each parameter, get a JSON answer below 500, and the server stays healthy. Bounded: a
// few thousand requests, each route once per value.

interface Parameter {
  name: string;
  in: string;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
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
