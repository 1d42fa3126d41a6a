import t from 'tap';
import { multipartBody, rawRequest, TINY_PNG } from '../helpers/files';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';
import { postLogin, SessionClient, setCookies, signIn } from '../helpers/session';
import { hasFields } from '../helpers/exact';

// issue 10: the failed-login limit shared by POST /login and POST /fetch_api_key, and the page's
// live and file traffic (events, uploads) through /json and the cookie.

const LIMIT = 5;

let counter = 0;

async function newMember(owner: ApiClient): Promise<{ id: number; email: string; password: string }> {
  counter++;
  const email = `limit${counter}-${process.pid}@example.com`;
  const password = `limit-secret-${counter}`;
  const res = await owner.post('/users', { email, password, full_name: `Limit Person ${counter}` });
  if (res.status !== 200) throw new Error(res.text);
  return { id: Number(res.body['user_id']), email, password };
}

t.test('failed logins and the page traffic', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const anonymous = owner.as(null);

  t.test(
    `after ${LIMIT} failed POST /login attempts the next is refused with 429, the right password too, on both endpoints`,
    async (t) => {
      const member = await newMember(owner);
      for (let i = 0; i < LIMIT; i++) t.equal((await postLogin(server.baseUrl, member.email, 'wrong')).status, 401, `failure ${i + 1}`);
      const refused = await postLogin(server.baseUrl, member.email, member.password);
      t.equal(refused.status, 429);
      hasFields(t, refused.body, { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': Number });
      const retryAfter = Number(refused.body['retry-after']);
      t.ok(retryAfter > 0 && retryAfter <= 30 * 60, `retry-after ${retryAfter} s is within the 30-minute window`);
      t.equal(refused.headers['retry-after'], String(Math.ceil(retryAfter)));
      t.strictSame(setCookies(refused), [], 'no session');
      const viaKey = await anonymous.post('/fetch_api_key', { username: member.email, password: member.password });
      t.equal(viaKey.status, 429, 'the limit is per username, whichever endpoint');
      t.equal(viaKey.body['code'], 'RATE_LIMIT_HIT');
      const otherUser = await newMember(owner);
      t.equal((await postLogin(server.baseUrl, otherUser.email, otherUser.password)).status, 200, 'other usernames are not limited');
    },
  );

  t.test(`failed POST /fetch_api_key attempts count toward the same limit`, async (t) => {
    const member = await newMember(owner);
    for (let i = 0; i < LIMIT; i++) {
      // The username's case does not matter: emails match without it.
      const username = i % 2 === 0 ? member.email : member.email.toUpperCase();
      t.equal((await anonymous.post('/fetch_api_key', { username, password: 'wrong' })).status, 401, `failure ${i + 1}`);
    }
    const viaKey = await anonymous.post('/fetch_api_key', { username: member.email, password: member.password });
    t.equal(viaKey.status, 429);
    t.equal(typeof viaKey.body['retry-after'], 'number');
    t.equal((await postLogin(server.baseUrl, member.email, member.password)).status, 429);
  });

  t.test('a success before the limit forgets the earlier failures', async (t) => {
    const member = await newMember(owner);
    for (let i = 0; i < LIMIT - 1; i++) await postLogin(server.baseUrl, member.email, 'wrong');
    t.equal((await postLogin(server.baseUrl, member.email, member.password)).status, 200);
    for (let i = 0; i < LIMIT - 1; i++) await postLogin(server.baseUrl, member.email, 'wrong');
    t.equal((await postLogin(server.baseUrl, member.email, member.password)).status, 200, 'four new failures are under the limit');
  });

  t.test('POST /json/register then GET /json/events long-polls until an event answers it', async (t) => {
    const member = await newMember(owner);
    const web = new SessionClient(server.baseUrl, await signIn(server.baseUrl, member.email, member.password));
    const registered = await web.post('/register', { event_types: ['message'] });
    t.equal(registered.status, 200, registered.text);
    const queueId = String(registered.body['queue_id']);
    const poll = web.get('/events', { queue_id: queueId, last_event_id: Number(registered.body['last_event_id']) });
    const sent = await owner.post('/messages', { type: 'stream', to: 'general', topic: 'live', content: 'seen by the page' });
    t.equal(sent.status, 200);
    const answered = await poll;
    t.equal(answered.status, 200, answered.text);
    const events = answered.body['events'] as { type: string; message?: { id: number; content: string } }[];
    const message = events.find((event) => event.type === 'message');
    t.equal(message?.message?.id, sent.body['id']);
    t.match(message?.message?.content, /seen by the page/);
  });

  t.test('a message sent from the page is recorded as client `website` and is read for its sender', async (t) => {
    const member = await newMember(owner);
    const web = new SessionClient(server.baseUrl, await signIn(server.baseUrl, member.email, member.password));
    const sent = await web.post(
      '/messages',
      { type: 'stream', to: 'general', topic: 'from the page', content: 'typed in a browser' },
      { headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64)' } },
    );
    t.equal(sent.status, 200, sent.text);
    const fetched = await web.get(`/messages/${String(sent.body['id'])}`);
    const message = fetched.body['message'] as { client: string; flags: string[] };
    t.equal(message.client, 'website', 'not the browser product token');
    t.strictSame(message.flags, ['read'], 'a person has read what they wrote');
    const viaApi = await owner.post('/messages', { type: 'stream', to: 'general', topic: 'from the page', content: 'sent by a script' });
    const apiMessage = (await owner.get(`/messages/${String(viaApi.body['id'])}`)).body['message'] as { client: string };
    t.not(apiMessage.client, 'website', 'an API client keeps its own name');
  });

  t.test('POST /json/user_uploads takes a multipart file; the cookie then fetches it from /user_uploads', async (t) => {
    const member = await newMember(owner);
    const session = await signIn(server.baseUrl, member.email, member.password);
    const web = new SessionClient(server.baseUrl, session);
    const { body, contentType } = multipartBody([{ field: 'file', filename: 'dot.png', contentType: 'image/png', data: TINY_PNG }]);
    const post = (csrf: boolean) =>
      rawRequest(server.baseUrl, '/json/user_uploads', {
        method: 'POST',
        body,
        headers: { ...web.cookieHeader(), 'Content-Type': contentType, ...(csrf ? { 'X-CSRF-Token': session.csrfToken } : {}) },
      });
    t.equal((await post(false)).status, 403, 'an upload is a write: it needs the CSRF token');
    const uploaded = await post(true);
    t.equal(uploaded.status, 200, uploaded.body.toString());
    const uri = String(uploaded.json()['uri']);
    t.match(uri, /^\/user_uploads\/.+\/dot\.png$/);

    const withCookie = await rawRequest(server.baseUrl, uri, { headers: web.cookieHeader() });
    t.equal(withCookie.status, 200);
    t.strictSame(withCookie.body, TINY_PNG);
    const withoutCookie = await rawRequest(server.baseUrl, uri);
    t.not(withoutCookie.status, 200, 'not to someone without credentials');
    const stranger = new SessionClient(server.baseUrl, await signIn(server.baseUrl, server.owner.email, server.owner.password));
    t.equal(
      (await rawRequest(server.baseUrl, uri, { headers: stranger.cookieHeader() })).status,
      404,
      'nor to a session of someone who may not read it',
    );
  });
});
