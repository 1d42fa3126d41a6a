import t from 'tap';
import { ApiClient, request } from '../helpers/http';
import { fetchMessage } from '../helpers/fixtures';
import { startServer } from '../helpers/server';

// SPEC §Wire conventions, api-notes §b: parameters from the query string and the body, for
// every method; JSON-encoded values decoded once; unknown parameters reported.
t.test('wire conventions', async (t) => {
  const server = await startServer({ env: { MAX_BODY_BYTES: '65536' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);

  t.test('a message can be sent with urlencoded, multipart and query-string parameters', async (t) => {
    for (const encoding of ['form', 'multipart', 'query'] as const) {
      const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: encoding, content: `via ${encoding}` }, encoding);
      t.equal(sent.status, 200, encoding);
      const message = await fetchMessage(api, sent.body['id'], false);
      t.equal(message['content'], `via ${encoding}`);
      t.equal(message['subject'], encoding);
    }
  });

  t.test('body parameters win over query parameters of the same name', async (t) => {
    const res = await request({
      baseUrl: server.baseUrl,
      method: 'POST',
      path: '/api/v1/messages?content=from-query&topic=q',
      params: { type: 'stream', to: 'general', content: 'from-body' },
      auth: server.owner,
    });
    t.equal((await fetchMessage(api, res.body['id'], false))['content'], 'from-body');
  });

  t.test('JSON-encoded booleans are decoded, and a bad one is REQUEST_VARIABLE_INVALID', async (t) => {
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 't', content: '**x**' });
    const raw = await api.get(`/messages/${String(sent.body['id'])}`, { apply_markdown: false });
    t.equal((raw.body['message'] as Record<string, unknown>)['content_type'], 'text/x-markdown');
    const bad = await api.get(`/messages/${String(sent.body['id'])}`, { apply_markdown: 'yes' });
    t.equal(bad.status, 400);
    t.strictSame(bad.body, { result: 'error', msg: 'Argument "apply_markdown" is not valid JSON.', code: 'BAD_REQUEST' });
    const wrongType = await api.get(`/messages/${String(sent.body['id'])}`, { apply_markdown: '5' });
    t.equal(wrongType.status, 400);
    t.strictSame(wrongType.body, {
      result: 'error',
      msg: 'apply_markdown is not a boolean',
      code: 'REQUEST_VARIABLE_INVALID',
      var_name: 'apply_markdown',
    });
  });

  t.test('the literal null means an optional JSON parameter is absent', async (t) => {
    const sent = await api.post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'x' });
    const fetched = await api.get(`/messages/${String(sent.body['id'])}`, { apply_markdown: 'null' });
    t.equal(fetched.status, 200);
    t.equal((fetched.body['message'] as Record<string, unknown>)['content_type'], 'text/html');
  });

  t.test('a missing parameter is REQUEST_VARIABLE_MISSING with var_name', async (t) => {
    const res = await api.post('/messages', { type: 'stream', to: 'general', topic: 't' });
    t.equal(res.status, 400);
    t.strictSame(res.body, { result: 'error', msg: "Missing 'content' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'content' });
  });

  t.test('a value outside an enumeration is REQUEST_VARIABLE_INVALID', async (t) => {
    const res = await api.post('/messages', { type: 'broadcast', to: 'general', topic: 't', content: 'x' });
    t.equal(res.status, 400);
    t.equal(res.body['code'], 'REQUEST_VARIABLE_INVALID');
    t.equal(res.body['var_name'], 'type');
  });

  t.test('unknown parameters are listed, sorted, in ignored_parameters_unsupported', async (t) => {
    const res = await api.post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'x', zeta: 1, alpha: 'a' });
    t.equal(res.status, 200);
    t.strictSame(res.body['ignored_parameters_unsupported'], ['alpha', 'zeta']);
    const plain = await api.get('/users/me');
    t.notOk('ignored_parameters_unsupported' in plain.body, 'absent when nothing was ignored');
  });

  t.test('a deprecated alias and its new name together are REQUEST_CONFUSING_VAR', async (t) => {
    const res = await api.post('/messages', { type: 'stream', to: 'general', topic: 'a', subject: 'b', content: 'x' });
    t.equal(res.status, 400);
    t.strictSame(res.body, {
      result: 'error',
      msg: "Can't decide between 'topic' and 'subject' arguments",
      code: 'REQUEST_CONFUSING_VAR',
      var_name1: 'topic',
      var_name2: 'subject',
    });
  });

  t.test('an unknown route is a 404 JSON error', async (t) => {
    const res = await api.get('/no/such/route');
    t.equal(res.status, 404);
    t.strictSame(res.body, { result: 'error', msg: 'Not found' });
    const outside = await request({ baseUrl: server.baseUrl, method: 'GET', path: '/nothing/here.html' });
    t.equal(outside.status, 404);
    t.equal(outside.body['result'], 'error');
  });

  t.test('a known path with the wrong method is a 405 with allowed_methods', async (t) => {
    const res = await api.call('DELETE', '/messages');
    t.equal(res.status, 405);
    t.strictSame(res.body, { result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET', 'POST'] });
    const dynamic = await api.call('PUT', '/messages/5');
    t.strictSame(dynamic.body['allowed_methods'], ['DELETE', 'GET', 'PATCH']);
  });

  t.test('a trailing slash is accepted', async (t) => {
    const res = await api.get('/users/me/');
    t.equal(res.status, 200);
  });

  t.test('a body over the limit is refused with 413 before it is buffered', async (t) => {
    const big = 'x'.repeat(70_000);
    const res = await api.post('/messages', { type: 'stream', to: 'general', topic: 't', content: big });
    t.equal(res.status, 413);
    t.equal(res.body['result'], 'error');
    t.match(String(res.body['msg']), /too large/);
    const after = await api.get('/users/me');
    t.equal(after.status, 200, 'the server keeps serving');
  });

  t.test('every response is JSON with result and msg', async (t) => {
    const res = await api.get('/users/me');
    t.match(res.headers['content-type'], /application\/json/);
    t.equal(res.body['result'], 'success');
    t.equal(res.body['msg'], '');
  });
});
