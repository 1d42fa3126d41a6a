import { isDeepStrictEqual } from 'node:util';
import { request, type ApiClient, type ApiResponse } from '../../helpers/http';
import { PRIVATE_MARK, PROTECTED_MARK, PUBLIC_MARK, type Fixture, type Identity, type World } from './fixture';
import { callOf, send } from './judge';
import { badQueue, INVALID_API_KEY, NO_FILE, type Refusal, type Rule } from './rules';

/** Fixture fields that are names (realm B may own a stream of the same name), not realm A's IDs. */
const NOT_IDS = new Set(['unique', 'streamNames']);

/** The fixture, recording which of realm A's objects a rule's call names. */
function recording(f: Fixture, read: Set<string>): Fixture {
  return new Proxy(f, {
    get(target, key, receiver) {
      if (typeof key === 'string' && !NOT_IDS.has(key)) read.add(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/** What realm A's owner sees of A's data, to compare before and after realm B's calls. */
export async function realmSnapshot(owner: ApiClient): Promise<unknown[]> {
  const reads: [string, Record<string, string | number | boolean | object>][] = [
    ['/messages', { anchor: 'newest', num_before: 1000, num_after: 0, apply_markdown: false }],
    ['/streams', { include_all_active: true }],
    ['/users', {}],
    ['/drafts', {}],
    ['/scheduled_messages', {}],
    ['/attachments', {}],
    ['/user_groups', {}],
    ['/realm/linkifiers', {}],
    ['/realm/emoji', {}],
    ['/users/me/alert_words', {}],
  ];
  const answers = await Promise.all(reads.map(([path, params]) => owner.get(path, params)));
  return answers.map((answer) => answer.body);
}

function leaks(answer: ApiResponse): boolean {
  return [PRIVATE_MARK, PUBLIC_MARK, PROTECTED_MARK].some((mark) => answer.text.includes(mark));
}

/**
 * Realm B's owner, on B's host, calls every route naming realm A's objects by their IDs: an
 * event queue of A is no queue in B; other IDs find nothing of A (a user ID may name one of B's
 * own people, the same number in another file); no answer shows A's data. Then A's upload under
 * both hosts, and A's key on B's host.
 */
export async function isolationCells(
  baseUrl: string,
  world: World,
  rules: Record<string, Rule>,
): Promise<{ cells: number; mismatches: string[] }> {
  const { fixture, otherRealm } = world;
  const realmB: Identity = { name: 'otherRealm', credentials: otherRealm.client.auth, password: null, host: otherRealm.host };
  const mismatches: string[] = [];
  let cells = 0;
  const judge = (what: string, answer: ApiResponse, expected: Refusal | 'not found' | 'anything but A'): void => {
    cells++;
    let wrong: string | null = null;
    if (leaks(answer)) wrong = 'shows realm A data';
    else if (expected === 'not found') {
      if (answer.status !== 400 && answer.status !== 404) wrong = `expected a not-found error, got ${answer.status}`;
    } else if (expected === 'anything but A') {
      if (answer.status >= 500 || answer.status === 401 || answer.status === 0) wrong = `got ${answer.status}`;
    } else if (answer.status !== expected.status || !isDeepStrictEqual(answer.body, expected.body)) {
      wrong = `expected ${expected.status} ${JSON.stringify(expected.body)}`;
    }
    if (wrong !== null) mismatches.push(`${what} by realm B: ${wrong}; got ${answer.status} ${answer.text.slice(0, 160)}`);
  };

  const cases = Object.entries(rules).flatMap(([key, rule]) => {
    if (rule.open || rule.last) return [];
    const read = new Set<string>();
    const call = callOf(key, rule, recording(fixture, read), realmB);
    return read.size === 0 ? [] : [{ key, rule, call, usersOnly: [...read].every((name) => name === 'users') }];
  });
  // Calls naming only users may create objects in B (a group with B's own user 1): after the rest,
  // so B's new objects never take the numbers of A's objects being probed.
  cases.sort((a, b) => Number(a.usersOnly) - Number(b.usersOnly));
  for (const { key, rule, call, usersOnly } of cases) {
    const answer = await send(baseUrl, call, realmB);
    if ('queue_id' in call.params) judge(key, answer, badQueue(String(call.params['queue_id'])));
    else judge(key, answer, rule.isolation ?? (usersOnly ? 'anything but A' : 'not found'));
  }

  const upload = `/user_uploads/${fixture.attachment.path}`;
  judge(
    'A upload on B host',
    await request({ baseUrl, method: 'GET', path: upload, auth: realmB.credentials, host: otherRealm.host }),
    NO_FILE,
  );
  judge('A upload on A host', await request({ baseUrl, method: 'GET', path: upload, auth: realmB.credentials }), INVALID_API_KEY);
  const ownerOfA = world.identities.find((who) => who.name === 'owner');
  judge(
    "A's key on B host",
    await request({ baseUrl, method: 'GET', path: '/api/v1/users/me', auth: ownerOfA?.credentials ?? null, host: otherRealm.host }),
    INVALID_API_KEY,
  );
  return { cells, mismatches };
}
