import t from 'tap';
import { ApiClient, type ApiResponse } from '../helpers/http';
import { startServer } from '../helpers/server';
import { realmOnAnotherShard } from '../helpers/shards';

// Shard faults: a shard stuck in a synchronous loop is ended by the front end's watchdog, one
// over its heap limit or calling process.exit ends alone; each is restarted, its requests are
// answered 503 JSON meanwhile, its realms' event queues are gone (BAD_EVENT_QUEUE_ID, then a
// new registration works), and the realms of other shards never notice.

const SERVICE_RESTARTED = { result: 'error', msg: 'The server restarted part of itself; try again' };

t.test('shard faults', async (t) => {
  const server = await startServer({ env: { SHARDS: '2', SHARD_WATCHDOG_MS: '1000', SHARD_HEAP_LIMIT_MB: '256' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const otherApi = realmOnAnotherShard(server, 2);

  /** Requests to the other shard's realm, one after another, until `done` settles. */
  async function otherRealmMeanwhile(done: Promise<unknown>): Promise<number[]> {
    const statuses: number[] = [];
    let settled = false;
    void done.finally(() => (settled = true));
    while (!settled) statuses.push((await otherApi.get('/users/me')).status);
    return statuses;
  }

  /** The default realm answers again (its shard restarted), polled without a fixed wait. */
  async function backAgain(): Promise<ApiResponse> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const answer = await api.get('/users/me');
      if (answer.status === 200 || Date.now() > deadline) return answer;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const faults: [name: string, path: string, params: Record<string, number>][] = [
    ['a synchronous loop, ended by the watchdog', '/__test__/spin', { ms: 60_000 }],
    ['a heap past its limit', '/__test__/hog', {}],
    ['process.exit inside the shard', '/__test__/exit', {}],
  ];
  for (const [name, path, params] of faults) {
    t.test(name, async (t) => {
      const registered = await api.post('/register', { event_types: ['message'] });
      t.equal(registered.status, 200);
      const queueId = String(registered.body['queue_id']);
      const fault = api.post(path, params);
      const meanwhile = await otherRealmMeanwhile(fault);
      const answer = await fault;
      t.strictSame([answer.status, answer.body], [503, SERVICE_RESTARTED], 'the faulted request gets a 503 JSON error');
      t.ok(meanwhile.length > 0, `the other shard's realm was asked ${meanwhile.length} times meanwhile`);
      t.strictSame([...new Set(meanwhile)], [200], "and always answered: the other shard's realm saw no error");
      const back = await backAgain();
      t.strictSame(back.status, 200, 'the realm is served again once its shard restarted');
      const lost = await api.get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
      t.strictSame([lost.status, lost.body['code']], [400, 'BAD_EVENT_QUEUE_ID'], 'its event queue is gone');
      const again = await api.post('/register', { event_types: ['message'] });
      t.strictSame(again.status, 200, 'and a client registers again');
    });
  }
});

// The watchdog counts a shard's silence from its first answer: a thread still loading its
// modules (slower than the watchdog's period on a loaded machine) is starting, not stuck.
t.test('a shard slower to start than the watchdog period is not ended', async (t) => {
  const server = await startServer({ env: { SHARDS: '2', SHARD_WATCHDOG_MS: '300', TEST_SHARD_LOAD_MS: '1500' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const me = await api.get('/users/me');
  t.strictSame([me.status, me.body['email']], [200, server.owner.email]);
  t.notMatch(server.output(), /stopped answering|shard thread exited/, 'no shard was ended or restarted');
  // Once serving, a stuck shard is still ended within about 1.25 periods.
  const spin = await api.post('/__test__/spin', { ms: 60_000 });
  t.strictSame([spin.status, spin.body], [503, SERVICE_RESTARTED]);
  t.match(server.output(), /shard stopped answering; terminating it/);
});
