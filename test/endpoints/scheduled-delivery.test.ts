import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { ApiClient } from '../helpers/http';
import { fetchMessage } from '../helpers/fixtures';
import { startServer, tempDataDir, type TestServer } from '../helpers/server';

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// SPEC States "Scheduled message": pending messages survive a restart and a crash, and go out
// once, without a request to their realm: each shard arms its realms' schedulers at start.
t.test('scheduled delivery across restarts', async (t) => {
  const dataDir = tempDataDir();
  let server: TestServer = await startServer({ dataDir });
  t.teardown(() => server.stop());
  const realmFile = path.join(dataDir, 'realms', 'default.sqlite3');
  const readRealm = <T>(query: (db: Database.Database) => T): T => {
    const db = new Database(realmFile, { readonly: true, fileMustExist: true });
    try {
      return query(db);
    } finally {
      db.close();
    }
  };
  const deliveredMessageId = (id: number): number | null =>
    readRealm(
      (db) => (db.prepare('SELECT delivered_message_id AS id FROM scheduled_messages WHERE id = ?').get(id) as { id: number | null }).id,
    );
  const copiesOf = (content: string): number =>
    readRealm((db) => (db.prepare('SELECT count(*) AS n FROM messages WHERE content = ?').get(content) as { n: number }).n);

  const scheduleThenStop = async (content: string, stop: (s: TestServer) => Promise<unknown>): Promise<number> => {
    const api = new ApiClient(server.baseUrl, server.owner);
    const due = nowSeconds() + 3;
    const res = await api.post('/scheduled_messages', {
      type: 'stream',
      to: 1,
      topic: 'restarts',
      content,
      scheduled_delivery_timestamp: due,
    });
    t.equal(res.status, 200, res.text);
    await stop(server);
    // The server is down while the delivery time passes.
    await until(() => nowSeconds() > due, 'the delivery time to pass');
    t.equal(deliveredMessageId(Number(res.body['scheduled_message_id'])), null, 'not delivered while the server was down');
    server = await startServer({ dataDir });
    return Number(res.body['scheduled_message_id']);
  };

  t.test('after a graceful stop, the next server delivers it at start, exactly once', async (t) => {
    const id = await scheduleThenStop('after a graceful stop', async (s) => t.equal(await s.stop(), 0));
    await until(() => deliveredMessageId(id) !== null, 'the delivery');
    t.equal(copiesOf('after a graceful stop'), 1);
    const api = new ApiClient(server.baseUrl, server.owner);
    const message = await fetchMessage(api, deliveredMessageId(id), false);
    t.strictSame([message['content'], message['subject']], ['after a graceful stop', 'restarts']);
    t.strictSame((await api.get('/scheduled_messages')).body['scheduled_messages'], []);
  });

  t.test('after a crash, the next server delivers it at start, exactly once', async (t) => {
    const id = await scheduleThenStop('after a crash', (s) => s.kill());
    await until(() => deliveredMessageId(id) !== null, 'the delivery');
    t.equal(copiesOf('after a crash'), 1);
    t.equal(copiesOf('after a graceful stop'), 1, 'the earlier one was not sent again');
  });

  t.test('a realm file that cannot be opened at start is logged and the shard still serves', async (t) => {
    await server.stop();
    const broken = new Database(path.join(dataDir, 'realms', 'broken.sqlite3'));
    broken.pragma('user_version = 9999'); // a schema newer than the server: refused on open
    broken.close();
    server = await startServer({ dataDir, env: { SHARDS: '1', LOG_LEVEL: 'error' } });
    const api = new ApiClient(server.baseUrl, server.owner);
    t.equal((await api.get('/users/me')).status, 200);
    t.match(server.output(), /cannot open realm at start/);
  });
});
