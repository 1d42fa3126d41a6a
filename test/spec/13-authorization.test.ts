import t from 'tap';
import { ApiClient } from '../helpers/http';
import { updateRealm } from '../helpers/fixtures';
import { startServer } from '../helpers/server';
import { signIn } from '../helpers/session';
import { buildWorld, PRIVATE_MARK, PROTECTED_MARK, PUBLIC_MARK, type Identity } from './authz/fixture';
import { isolationCells, realmSnapshot } from './authz/isolation';
import { callOf, expectedAnswer, mismatch, routeOf, send } from './authz/judge';
import { type Rule } from './authz/rules';
import { MESSAGE_AND_STREAM_RULES } from './authz/table-messages';
import { SETTINGS_AND_ADMIN_RULES } from './authz/table-settings';

// Nobody gets in where they don't belong: every route of the server's own description × every
// kind of caller, each answer judged against the table in authz/ (who may call it, what a
// refusal looks like, from SPEC.md and the reference OpenAPI), never against the server's own
// answers; then the surfaces (an API key on /json, a session cookie on /api/v1) and realm
// isolation (realm B's owner naming realm A's IDs on B's host).

const MARKS = [PRIVATE_MARK, PUBLIC_MARK, PROTECTED_MARK];

const RULES: Record<string, Rule> = { ...MESSAGE_AND_STREAM_RULES, ...SETTINGS_AND_ADMIN_RULES };

interface Operation {
  security?: unknown[];
}

t.test('role × route matrix', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const world = await buildWorld(server);
  const { fixture, identities } = world;
  const description = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  const mismatches: string[] = [];
  let cells = 0;
  let admitted = 0;
  // The leak check means something only if the marks do show where they may.
  const marksShown = new Map<string, number>();

  // The table names every described route, and says what the description says of credentials.
  const described = new Map<string, Operation>();
  for (const [path, methods] of Object.entries(description.paths)) {
    for (const [method, operation] of Object.entries(methods)) described.set(`${method.toUpperCase()} ${path}`, operation);
  }
  const ruled = new Set(Object.keys(RULES).map(routeOf));
  for (const route of described.keys()) if (!ruled.has(route)) mismatches.push(`${route}: no row in the authorization table`);
  for (const route of ruled) if (!described.has(route)) mismatches.push(`${route}: in the table, not described by the server`);
  for (const [key, rule] of Object.entries(RULES)) {
    const security = JSON.stringify(described.get(routeOf(key))?.security ?? null);
    const expected = rule.open ? '[]' : rule.spectators ? '[{},{"basicAuth":[]}]' : 'null';
    if (security !== expected) mismatches.push(`${key}: described with security ${security}, the table says ${expected}`);
  }

  const judgeCell = async (key: string, rule: Rule, who: Identity, spectatorsOn: boolean): Promise<void> => {
    const expected = expectedAnswer(rule, fixture, who, spectatorsOn);
    const answer = await send(server.baseUrl, callOf(key, rule, fixture, who), who);
    cells++;
    if (expected === 'allowed' && answer.status === 200) admitted++;
    const wrong = mismatch(answer, expected, rule, fixture, who);
    if (wrong !== null) mismatches.push(`${key} as ${who.name}${spectatorsOn ? ' (spectators on)' : ''}: ${wrong}`);
    for (const mark of MARKS) if (answer.text.includes(mark)) marksShown.set(mark, (marksShown.get(mark) ?? 0) + 1);
    // A new key replaces the old one for the caller's later cells.
    if (routeOf(key) === 'POST /users/me/api_key/regenerate' && answer.status === 200 && who.credentials) {
      who.credentials = { ...who.credentials, key: String(answer.body['api_key']) };
    }
  };
  /** Refused callers first, so an object is still there when a caller who must not touch it tries. */
  const inOrder = (rule: Rule, spectatorsOn: boolean): Identity[] => {
    const refused = identities.filter((who) => expectedAnswer(rule, fixture, who, spectatorsOn) !== 'allowed');
    return [...refused, ...identities.filter((who) => !refused.includes(who))];
  };

  const ordinary = Object.entries(RULES).filter(([, rule]) => !rule.last);
  for (const [key, rule] of ordinary) for (const who of inOrder(rule, false)) await judgeCell(key, rule, who, false);

  // Spectators once the realm lets them in (SPEC §Authentication 3).
  const owner = new ApiClient(server.baseUrl, server.owner);
  await updateRealm(owner, { enable_spectator_access: true });
  const spectator = identities.find((who) => who.name === 'spectator');
  if (spectator) for (const [key, rule] of ordinary) await judgeCell(key, rule, spectator, true);

  // An API key never works on /json, a session cookie never on /api/v1 (issue 10 "Signing in").
  const session = await signIn(server.baseUrl, server.owner.email, server.owner.password);
  const keyOnly = identities.find((who) => who.name === 'owner');
  for (const [key, rule] of Object.entries(RULES)) {
    if (rule.open || !keyOnly) continue;
    const call = callOf(key, rule, fixture, keyOnly);
    const onJson = await send(server.baseUrl, call, keyOnly, { path: `/json${call.path}` });
    const cookieOnly = await send(
      server.baseUrl,
      call,
      { ...keyOnly, credentials: null },
      {
        headers: { Cookie: `sessionid=${session.sessionId}; csrftoken=${session.csrfToken}`, 'X-CSRF-Token': session.csrfToken },
      },
    );
    for (const [surface, answer] of [
      ['an API key on /json', onJson],
      ['a session cookie on /api/v1', cookieOnly],
    ] as const) {
      cells++;
      // The wrong credential is no credential: the caller is a spectator.
      const asSpectator: Identity = { ...keyOnly, name: 'spectator' };
      const wrong = mismatch(answer, expectedAnswer(rule, fixture, asSpectator, true), rule, fixture, asSpectator);
      if (wrong !== null) mismatches.push(`${key} with ${surface}: ${wrong}`);
    }
  }

  // Realm isolation: realm B's owner names realm A's objects on B's host; A is unchanged.
  const before = await realmSnapshot(owner);
  const isolation = await isolationCells(server.baseUrl, world, RULES);
  cells += isolation.cells;
  mismatches.push(...isolation.mismatches);
  t.strictSame(await realmSnapshot(owner), before, 'realm B changed nothing of realm A');

  // Routes that end the caller's credentials, last of all.
  for (const [key, rule] of Object.entries(RULES).filter(([, r]) => r.last)) {
    // The owner last: a deactivated owner's bots are deactivated with them.
    for (const who of inOrder(rule, true).reverse()) await judgeCell(key, rule, who, true);
  }

  t.comment(`${cells} cells tested (${admitted} let in with 200), ${mismatches.length} mismatches`);
  t.comment(`answers showing each mark to its readers: ${MARKS.map((mark) => `${mark} ×${marksShown.get(mark) ?? 0}`).join(', ')}`);
  t.ok(
    MARKS.every((mark) => (marksShown.get(mark) ?? 0) > 0),
    'each mark shows to its readers',
  );
  for (const line of mismatches) t.comment(line);
  t.strictSame(mismatches, [], 'every cell answers as the table says');
});
