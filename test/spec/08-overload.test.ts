import http from 'node:http';
import t from 'tap';
import { shardIndexFor } from '../../src/realm/router';
import { ApiClient, basicAuth, type ApiResponse } from '../helpers/http';
import { manage } from '../helpers/manage';
import { startServer } from '../helpers/server';

// A shard whose queue of unanswered requests is full (SHARD_QUEUE_LIMIT) refuses new requests
// for its realms at once with 503 and Retry-After, instead of queueing them until they time out.
// The tests fill a queue of 2 with the test hook that holds a request for a while.

const BUSY = { result: 'error', msg: 'The server is busy; try again in a moment' };
const HOLD_MS = 4000;

/** GETs /users/me until the shard refuses it as busy (the held requests have reached it). */
async function untilBusy(api: ApiClient): Promise<ApiResponse | null> {
  for (let i = 0; i < 200; i++) {
    const res = await api.get('/users/me');
    if (res.status === 503) return res;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return null;
}

t.test('a shard with a full queue', async (t) => {
  const server = await startServer({ env: { SHARDS: '2', SHARD_QUEUE_LIMIT: '2' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  let other = '';
  for (let i = 0; other === ''; i++) if (shardIndexFor(`r${i}`, 2) !== shardIndexFor('default', 2)) other = `r${i}`;
  const env = { DATA_DIR: server.dataDir, EXTERNAL_HOST: `localhost:${server.port}` };
  const created = manage(['create-realm', '--subdomain', other, '--name', 'Other', '--owner-email', 'o@other.test'], env);
  t.equal(created.status, 0, created.stderr);
  const otherRealm = new ApiClient(server.baseUrl, null, `${other}.localhost:${server.port}`);
  const registered = await api.post('/register', { event_types: ['message'] });
  t.equal(registered.status, 200, registered.text);

  t.test('answers 503 with Retry-After at once, serves its parked polls and leaves other shards alone', async (t) => {
    const held = [api.post('/__test__/sleep', { ms: HOLD_MS }), api.post('/__test__/sleep', { ms: HOLD_MS })];
    // The two held requests reach the shard in their own time; from then on it is full.
    const busy = await untilBusy(api);
    if (busy === null) {
      t.fail('the shard never became busy');
      return;
    }
    t.strictSame(busy.body, BUSY);
    t.equal(busy.headers['retry-after'], '1');
    const withBody = await api.post('/messages', { type: 'stream', to: 'general', topic: 'busy', content: 'refused' });
    t.strictSame([withBody.status, withBody.body, withBody.headers['retry-after']], [503, BUSY, '1'], 'a request with a body too');
    const events = await api.get('/events', { queue_id: String(registered.body['queue_id']), last_event_id: -1, dont_block: true });
    t.equal(events.status, 200, 'a poll is not queued work: it is still served');
    const elsewhere = await otherRealm.get('/server_settings');
    t.equal(elsewhere.status, 200, 'a realm on another shard is served');
    const answers = await Promise.all(held);
    t.strictSame(
      answers.map((res) => [res.status, res.body['slept']]),
      [
        [200, HOLD_MS],
        [200, HOLD_MS],
      ],
      'the held requests were answered',
    );
    const after = await api.get('/users/me');
    t.equal(after.status, 200, 'normal service once the queue drained');
  });

  t.test('of several requests arriving together, as many as the bound are queued and the rest refused', async (t) => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => api.post('/__test__/sleep', { ms: HOLD_MS })));
    const statuses = answers.map((res) => res.status).sort();
    t.strictSame(statuses, [200, 200, 503, 503, 503, 503]);
    t.strictSame(
      answers.filter((res) => res.status === 503).map((res) => [res.body, res.headers['retry-after']]),
      Array.from({ length: 4 }, () => [BUSY, '1']),
    );
    t.equal((await api.get('/users/me')).status, 200);
  });

  t.test('requests whose clients went away stay queued until the shard has done them', async (t) => {
    const held = [0, 1].map(() => {
      const req = http.request({
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path: `/api/v1/__test__/sleep?ms=${HOLD_MS}`,
        headers: { Authorization: basicAuth(server.owner) },
      });
      req.on('error', () => undefined);
      req.end();
      return req;
    });
    t.ok(await untilBusy(api), 'the held requests filled the queue');
    for (const req of held) req.destroy();
    // Time for the server to see both clients go.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const meanwhile = await api.get('/users/me');
    t.strictSame([meanwhile.status, meanwhile.body], [503, BUSY], 'the shard is still working on them');
    let after = await api.get('/users/me');
    for (let i = 0; i < 100 && after.status === 503; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await api.get('/users/me');
    }
    t.equal(after.status, 200, 'once done, normal service');
  });
});
