import t from 'tap';
import { ApiClient, request } from '../helpers/http';
import { startServer } from '../helpers/server';

// Every bad input gets a JSON error in the API's envelope with a 4xx status, never a 5xx.
t.test('malformed requests get JSON errors, never a server error', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const cases: [string, () => ReturnType<ApiClient['get']>][] = [
    ['a message ID beyond any integer', () => api.get('/messages/99999999999999999999')],
    ['a message ID that is not a number', () => api.get('/messages/abc')],
    ['a path that is not valid percent-encoding', () => api.get('/messages/%ff')],
    ['an empty stream list', () => api.post('/messages', { type: 'stream', to: '[]', topic: 'x', content: 'y' })],
    ['an empty user list', () => api.post('/messages', { type: 'direct', to: '[]', content: 'y' })],
    ['an object as recipient', () => api.post('/messages', { type: 'stream', to: '{"a":1}', topic: 'x', content: 'y' })],
    ['an infinite stream ID', () => api.post('/messages', { type: 'stream', to: '1e400', topic: 'x', content: 'y' })],
    ['a negative stream ID', () => api.post('/messages', { type: 'stream', to: '-1', topic: 'x', content: 'y' })],
    ['a fractional user ID', () => api.post('/messages', { type: 'direct', to: '[1.5]', content: 'y' })],
    ['a null stream name', () => api.post('/users/me/subscriptions', { subscriptions: '[{"name":null}]' })],
    ['a number as subscription', () => api.post('/users/me/subscriptions', { subscriptions: '[1]' })],
    ['an object as principal', () => api.post('/users/me/subscriptions', { subscriptions: [{ name: 'a' }], principals: '[{}]' })],
    ['a word as retention', () => api.post('/users/me/subscriptions', { subscriptions: [{ name: 'a' }], message_retention_days: 'abc' })],
    ['an unknown post policy', () => api.post('/users/me/subscriptions', { subscriptions: [{ name: 'a' }], stream_post_policy: 9 })],
    ['a filter ID that is not a number', () => api.call('PATCH', '/realm/filters/abc', { pattern: 'x', url_template: 'y' })],
    ['alert words that are not strings', () => api.post('/users/me/alert_words', { alert_words: '[1, null]' })],
    ['group members that are not IDs', () => api.post('/user_groups/create', { name: 'g', description: 'd', members: '["x"]' })],
  ];
  for (const [name, send] of cases) {
    const res = await send();
    t.ok(res.status >= 400 && res.status < 500, `${name}: ${res.status}`);
    t.equal(res.body['result'], 'error', name);
    t.type(res.body['msg'], 'string', name);
  }

  const garbled: [string, Record<string, string>, string][] = [
    ['a multipart body without parts', { 'Content-Type': 'multipart/form-data; boundary=zzz' }, 'garbage'],
    ['a multipart body without a boundary', { 'Content-Type': 'multipart/form-data' }, 'garbage'],
    ['a JSON body (not a supported encoding)', { 'Content-Type': 'application/json' }, '{"type":"stream"}'],
  ];
  for (const [name, headers, body] of garbled) {
    const res = await request({
      baseUrl: server.baseUrl,
      method: 'POST',
      path: '/api/v1/messages',
      headers,
      rawBody: body,
      auth: server.owner,
      encoding: 'query',
    });
    t.equal(res.status, 400, name);
    t.equal(res.body['code'], 'REQUEST_VARIABLE_MISSING', `${name}: nothing was read from it`);
  }

  const binaryCredentials = Buffer.from([0xff, 0xfe, 0x3a, 0x00]).toString('base64');
  const odd = await request({
    baseUrl: server.baseUrl,
    method: 'GET',
    path: '/api/v1/users/me',
    headers: { Authorization: `Basic ${binaryCredentials}` },
  });
  t.equal(odd.status, 401, 'credentials that are not text');

  for (const content of ['[a]('.repeat(3000), '>'.repeat(5000) + 'x', '*'.repeat(9000), '`'.repeat(9000)]) {
    const res = await api.post('/messages/render', { content });
    t.equal(res.status, 200, `pathological Markdown of ${content.length} characters renders`);
  }
  const health = await request({ baseUrl: server.baseUrl, method: 'GET', path: '/health' });
  t.equal(health.status, 200, 'the server is still healthy');
});
