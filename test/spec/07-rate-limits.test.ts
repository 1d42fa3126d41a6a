import t from 'tap';
import { createMember } from '../helpers/fixtures';
import { ApiClient, request, type ApiResponse } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';
import { postLogin, SessionClient, signIn } from '../helpers/session';

// api-notes §Limits and §f: 200 requests a minute per user, 100 per address for requests that
// name no proven credential, failed sign-ins per address; 429 RATE_LIMIT_HIT with `retry-after`
// (float seconds) and Retry-After, X-RateLimit-* on the answers. The tests shrink the budgets.

const RATE_LIMIT_HIT_MSG = 'API usage exceeded rate limit';

async function limitedServer(env: Record<string, string>): Promise<TestServer> {
  return startServer({ env: { SHARDS: '1', RATE_LIMITING: '1', ...env } });
}

/** The X-RateLimit-Limit and X-RateLimit-Remaining of an answer. */
function budget(res: ApiResponse): [unknown, unknown] {
  return [res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']];
}

/** Checks a 429 exactly; resolves with its `retry-after` (seconds). */
function assertRefused(t: tap.Test, res: ApiResponse, limit: string, maxSeconds: number, why = 'refused'): number {
  t.equal(res.status, 429, `${why}: ${res.text}`);
  const retryAfter = res.body['retry-after'];
  t.equal(typeof retryAfter, 'number', 'retry-after is a number of seconds');
  const seconds = Number(retryAfter);
  t.ok(seconds > 0 && seconds <= maxSeconds, `retry-after ${seconds} s is within the ${maxSeconds} s window`);
  t.strictSame(res.body, { result: 'error', msg: RATE_LIMIT_HIT_MSG, 'retry-after': seconds, code: 'RATE_LIMIT_HIT' });
  t.equal(res.headers['retry-after'], String(Math.ceil(seconds)));
  t.strictSame(budget(res), [limit, '0']);
  const reset = Number(res.headers['x-ratelimit-reset']);
  const now = Date.now() / 1000;
  t.ok(
    Number.isInteger(reset) && reset >= Math.floor(now) && reset <= Math.ceil(now + maxSeconds),
    `X-RateLimit-Reset ${reset} is a UNIX time within the window`,
  );
  return seconds;
}

t.test('the budget of each user', async (t) => {
  const server = await limitedServer({
    RATE_LIMIT_USER_PER_MINUTE: '5',
    RATE_LIMIT_ADDRESS_PER_MINUTE: '1000',
    RATE_LIMIT_FILES_PER_MINUTE: '2',
  });
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const [alice, bob, carol, dave] = [
    await createMember(owner),
    await createMember(owner),
    await createMember(owner),
    await createMember(owner),
  ];

  t.test('past 5 requests a user gets 429 with the API error, headers on every answer', async (t) => {
    const api = owner.as(alice);
    const first = await api.get('/users/me');
    t.equal(first.status, 200);
    t.equal(budget(first)[0], '1000', 'a credential the shard has not yet accepted is charged to its address');
    const registered = await api.post('/register', { event_types: ['message'] });
    t.equal(registered.status, 200, registered.text);
    const answers = [registered];
    for (let i = 0; i < 4; i++) answers.push(await api.get('/users/me'));
    t.strictSame(
      answers.map((res) => [res.status, ...budget(res)]),
      [
        [200, '5', '4'],
        [200, '5', '3'],
        [200, '5', '2'],
        [200, '5', '1'],
        [200, '5', '0'],
      ],
    );
    assertRefused(t, await api.get('/users/me'), '5', 60);
    assertRefused(t, await api.post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'x' }), '5', 60);

    // GET /events has its own budget: a client past its API budget still gets its events.
    const events = await api.get('/events', { queue_id: String(registered.body['queue_id']), last_event_id: -1, dont_block: true });
    t.equal(events.status, 200, events.text);
    t.strictSame(budget(events), ['5', '4']);
  });

  t.test('file requests have a budget of their own, per user or else per address', async (t) => {
    const avatar = (auth: { email: string; key: string } | null): Promise<ApiResponse> =>
      request({ baseUrl: server.baseUrl, method: 'GET', path: `/avatar/${alice.id}`, auth });
    const anonymous = [await avatar(null), await avatar(null)];
    t.strictSame(
      anonymous.map((res) => [res.status, ...budget(res)]),
      [
        [302, '2', '1'],
        [302, '2', '0'],
      ],
    );
    assertRefused(t, await avatar(null), '2', 60);
    const own = await avatar(alice);
    t.strictSame([own.status, ...budget(own)], [302, '2', '1'], 'alice, past her API budget, still has her files budget');
  });

  t.test('a wrong key naming a user spends the sender’s address budget, never that user’s', async (t) => {
    const api = owner.as(bob);
    t.equal(budget(await api.get('/users/me'))[0], '1000');
    const guesses: unknown[] = [];
    for (let i = 0; i < 8; i++) {
      const guessed = await owner.as({ email: bob.email, key: `wrong-key-${i}` }).get('/users/me');
      guesses.push([guessed.status, budget(guessed)[0]]);
    }
    t.strictSame(
      guesses,
      Array.from({ length: 8 }, () => [401, '1000']),
    );
    const own: unknown[] = [];
    for (let i = 0; i < 5; i++) own.push(budget(await api.get('/users/me')));
    t.strictSame(
      own,
      [
        ['5', '4'],
        ['5', '3'],
        ['5', '2'],
        ['5', '1'],
        ['5', '0'],
      ],
      'bob still has all of his',
    );
    t.equal((await owner.as(carol).get('/users/me')).status, 200, 'other users are not limited');
  });

  t.test('the web page’s session cookie is charged to its user once the shard accepted it', async (t) => {
    const web = new SessionClient(server.baseUrl, await signIn(server.baseUrl, carol.email, carol.password));
    const first = await web.get('/users/me');
    t.equal(first.status, 200, first.text);
    t.equal(budget(first)[0], '1000');
    const second = await web.get('/users/me');
    t.strictSame([second.status, ...budget(second)], [200, '5', '4']);
  });

  t.test('a credential the shard refuses is forgotten: its next requests spend the address budget', async (t) => {
    const api = owner.as(dave);
    t.equal(budget(await api.get('/users/me'))[0], '1000');
    const regenerated = await api.post('/users/me/api_key/regenerate');
    t.equal(regenerated.status, 200, regenerated.text);
    t.strictSame(budget(regenerated), ['5', '4']);
    const stale = [await api.get('/users/me'), await api.get('/users/me')];
    t.strictSame(
      stale.map((res) => [res.status, budget(res)[0]]),
      [
        [401, '5'],
        [401, '1000'],
      ],
    );
    const renewed = owner.as({ email: dave.email, key: String(regenerated.body['api_key']) });
    t.equal(budget(await renewed.get('/users/me'))[0], '1000');
    t.strictSame(budget(await renewed.get('/users/me')), ['5', '2'], 'the new key spends dave’s one budget');
  });
});

t.test('the budget of an address', async (t) => {
  // No proxy trusted, not even loopback: a client's X-Forwarded-For is its own claim.
  const server = await limitedServer({ RATE_LIMIT_ADDRESS_PER_MINUTE: '3', TRUSTED_PROXIES: 'none' });
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const anonymous = owner.as(null);
  const madeUp = owner.as({ email: server.owner.email, key: 'made-up-key' });

  const learned = await owner.get('/users/me');
  t.strictSame([learned.status, ...budget(learned)], [200, '3', '2']);
  const settings = await anonymous.get('/server_settings');
  t.strictSame([settings.status, ...budget(settings)], [200, '3', '1']);
  const guessed = await madeUp.get('/users/me');
  t.strictSame([guessed.status, ...budget(guessed)], [401, '3', '0']);
  assertRefused(t, await anonymous.get('/server_settings'), '3', 60);
  assertRefused(t, await madeUp.get('/users/me'), '3', 60);
  assertRefused(t, await anonymous.post('/fetch_api_key', { username: server.owner.email, password: server.owner.password }), '3', 60);
  const claimed = {
    baseUrl: server.baseUrl,
    method: 'GET',
    path: '/api/v1/server_settings',
    headers: { 'X-Forwarded-For': '203.0.113.9' },
  };
  assertRefused(t, await request(claimed), '3', 60, 'an X-Forwarded-For the server was not told to trust changes nothing');
  const proven = await owner.get('/users/me');
  t.strictSame([proven.status, ...budget(proven)], [200, '200', '199'], 'a proven credential spends its user’s budget, not the address’s');
});

t.test('failed sign-ins from one address, whatever the usernames', async (t) => {
  const server = await limitedServer({ LOGIN_FAILURE_ADDRESS_LIMIT: '3', RATE_LIMIT_ADDRESS_PER_MINUTE: '1000' });
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const member = await createMember(owner);
  const anonymous = owner.as(null);

  const failures: number[] = [];
  for (let i = 0; i < 2; i++)
    failures.push((await anonymous.post('/fetch_api_key', { username: `nobody${i}@example.com`, password: 'wrong' })).status);
  failures.push((await postLogin(server.baseUrl, 'nobody2@example.com', 'wrong')).status);
  t.strictSame(failures, [401, 401, 401], 'each username failed once: under its own limit of 5');
  assertRefused(t, await postLogin(server.baseUrl, 'nobody3@example.com', 'wrong'), '3', 30 * 60);
  assertRefused(t, await anonymous.post('/fetch_api_key', { username: member.email, password: member.password }), '3', 30 * 60);
  assertRefused(t, await postLogin(server.baseUrl, member.email, member.password), '3', 30 * 60);
  const withKey = await owner.as(member).get('/users/me');
  t.equal(withKey.status, 200, 'requests with an API key are not sign-ins');
});

t.test('a refused client is served again once retry-after has passed', async (t) => {
  const server = await limitedServer({ RATE_LIMIT_ADDRESS_PER_MINUTE: '1', RATE_LIMIT_WINDOW_MS: '1000' });
  t.teardown(() => server.stop());
  let refused: ApiResponse | null = null;
  for (let i = 0; i < 20 && refused === null; i++) {
    const res = await request({ baseUrl: server.baseUrl, method: 'GET', path: '/api/v1/server_settings' });
    if (res.status === 429) refused = res;
  }
  if (refused === null) {
    t.fail('never refused');
    return;
  }
  const seconds = assertRefused(t, refused, '1', 1);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 50));
  const again = await request({ baseUrl: server.baseUrl, method: 'GET', path: '/api/v1/server_settings' });
  t.strictSame([again.status, ...budget(again)], [200, '1', '0']);
});

t.test('behind a trusted proxy (loopback by default) the address is the nearest X-Forwarded-For hop not a proxy', async (t) => {
  const server = await limitedServer({ RATE_LIMIT_ADDRESS_PER_MINUTE: '1' });
  t.teardown(() => server.stop());
  const from = (forwardedFor: string | null): Promise<ApiResponse> =>
    request({
      baseUrl: server.baseUrl,
      method: 'GET',
      path: '/api/v1/server_settings',
      headers: forwardedFor === null ? {} : { 'X-Forwarded-For': forwardedFor },
    });
  const first = await from('192.0.2.7, 198.51.100.1');
  t.strictSame([first.status, ...budget(first)], [200, '1', '0']);
  assertRefused(t, await from('192.0.2.8, 198.51.100.1'), '1', 60, 'what the client put before the proxy’s entry does not count');
  const other = await from('198.51.100.2');
  t.strictSame([other.status, ...budget(other)], [200, '1', '0'], 'another client behind the proxy has its own budget');
  const direct = await from(null);
  t.strictSame([direct.status, ...budget(direct)], [200, '1', '0'], 'without the header, the peer address');
});

t.test('with no trusted proxy, X-Forwarded-For does not choose the address', async (t) => {
  const server = await limitedServer({ RATE_LIMIT_ADDRESS_PER_MINUTE: '1', TRUSTED_PROXIES: 'none' });
  t.teardown(() => server.stop());
  const from = (forwardedFor: string): Promise<ApiResponse> =>
    request({ baseUrl: server.baseUrl, method: 'GET', path: '/api/v1/server_settings', headers: { 'X-Forwarded-For': forwardedFor } });
  const first = await from('198.51.100.1');
  t.strictSame([first.status, ...budget(first)], [200, '1', '0']);
  assertRefused(t, await from('198.51.100.2'), '1', 60, 'a claimed address is the same peer');
});
