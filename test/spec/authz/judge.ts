import { isDeepStrictEqual } from 'node:util';
import { request, type ApiResponse, type RequestSpec } from '../../helpers/http';
import { PRIVATE_MARK, PROTECTED_MARK, PUBLIC_MARK, ROLES, type Fixture, type Identity, type RoleName } from './fixture';
import { INVALID_API_KEY, NOT_LOGGED_IN, REALM_DEACTIVATED, USER_DEACTIVATED, type Params, type Refusal, type Rule } from './rules';
import { PRIVATE_READERS, PUBLIC_READERS } from './rules';

export type Expected = Refusal | 'allowed';

/** The route id of a table key (`METHOD /path · variant` → `METHOD /path`). */
export function routeOf(key: string): string {
  return key.split(' · ')[0] ?? key;
}

export function refusedRoles(rule: Rule, f: Fixture): Partial<Record<RoleName, Refusal>> {
  return typeof rule.refused === 'function' ? rule.refused(f) : (rule.refused ?? {});
}

/** What `who` must get from `rule`, from the table alone. */
export function expectedAnswer(rule: Rule, f: Fixture, who: Identity, spectatorsOn: boolean): Expected {
  if ((ROLES as readonly string[]).includes(who.name)) return refusedRoles(rule, f)[who.name as RoleName] ?? 'allowed';
  const other = rule.others?.[who.name];
  if (other) return other;
  if (rule.open) return 'allowed';
  switch (who.name) {
    case 'deactivated':
      return USER_DEACTIVATED;
    case 'deactivatedRealm':
      return REALM_DEACTIVATED;
    case 'otherRealm':
      return INVALID_API_KEY;
    default:
      return rule.spectators && spectatorsOn ? 'allowed' : NOT_LOGGED_IN;
  }
}

/** Every refusal a caller could get from `rule`: an allowed caller must get none of them. */
function refusalsOf(rule: Rule, f: Fixture): Refusal[] {
  return [
    ...Object.values(refusedRoles(rule, f)),
    ...Object.values(rule.others ?? {}),
    NOT_LOGGED_IN,
    INVALID_API_KEY,
    USER_DEACTIVATED,
    REALM_DEACTIVATED,
  ];
}

/** The marks of realm A that `who` may never read (fixture.ts). */
export function forbiddenMarks(who: Identity): string[] {
  const role = who.name as RoleName;
  return [
    ...(PRIVATE_READERS.includes(role) ? [] : [PRIVATE_MARK]),
    ...(PUBLIC_READERS.includes(role) ? [] : [PUBLIC_MARK]),
    ...(role === 'owner' ? [] : [PROTECTED_MARK]),
  ];
}

/** Why `answer` breaks `expected` (null when it holds). */
export function mismatch(answer: ApiResponse, expected: Expected, rule: Rule, f: Fixture, who: Identity): string | null {
  const leaked = forbiddenMarks(who).filter((mark) => answer.text.includes(mark));
  if (leaked.length > 0) return `leaks ${leaked.join(', ')}`;
  if (expected !== 'allowed') {
    if (answer.status === expected.status && isDeepStrictEqual(answer.body, expected.body)) return null;
    return `expected ${expected.status} ${JSON.stringify(expected.body)}, got ${answer.status} ${answer.text.slice(0, 200)}`;
  }
  const refused = answer.status === 401 || answer.status === 403 || refusalsOf(rule, f).some((r) => isDeepStrictEqual(answer.body, r.body));
  if (answer.status >= 500 || refused) return `expected to be let in, got ${answer.status} ${answer.text.slice(0, 200)}`;
  return null;
}

export interface Call {
  method: string;
  path: string;
  params: Params;
}

/** The request `rule` makes for `who`, with realm A's objects filled in. */
export function callOf(key: string, rule: Rule, f: Fixture, who: Identity): Call {
  const [method = 'GET', routePath = '/'] = routeOf(key).split(' ');
  return { method, path: rule.path ? rule.path(f) : routePath, params: rule.params ? rule.params(f, who) : {} };
}

/** Sends `call` under /api/v1 with `who`'s credentials and host; a failed connection is a status 0 answer. */
export async function send(baseUrl: string, call: Call, who: Identity, extra: Partial<RequestSpec> = {}): Promise<ApiResponse> {
  const spec: RequestSpec = {
    baseUrl,
    method: call.method,
    path: `/api/v1${call.path}`,
    params: call.params,
    encoding: call.method === 'GET' || call.method === 'DELETE' ? 'query' : 'form',
    auth: who.credentials,
    ...extra,
  };
  if (who.host !== undefined) spec.host = who.host;
  try {
    return await request(spec);
  } catch (error) {
    return { status: 0, headers: {}, body: {}, text: `no answer: ${String(error)}` };
  }
}
