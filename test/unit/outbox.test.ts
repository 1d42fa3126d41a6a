import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import pino from 'pino';
import { createRealm } from '../../workers/db/create-realm';
import { openRealmDb } from '../../workers/db/open';
import type { QueuedEvent } from '../../workers/events/outbox';
import { COMMIT_BUDGET_MS } from '../../workers/db/group-commit';
import { Realm } from '../../workers/realm';
import { Renderer } from '../../workers/render/pool';
import { newUnitRealm, eventField } from '../helpers/unit-realm';

// STYLE §2.3 step 4: events leave the outbox only after the commit; a rollback drops them.
t.test('the outbox', async (t) => {
  const realm = await newUnitRealm('unit');
  t.teardown(() => realm.close());
  const delivered: QueuedEvent[] = [];
  realm.events.subscribe((events) => delivered.push(...events));

  t.test('delivers the events of a committed transaction after the commit', async (t) => {
    let deliveredDuringTransaction = -1;
    await realm.transact((tx) => {
      tx.realm.stmt("UPDATE realm SET description = 'committed'").run();
      tx.publish({ type: 'alert_words', alert_words: ['committed'] }, [1]);
      deliveredDuringTransaction = delivered.length;
    });
    t.equal(deliveredDuringTransaction, 0, 'nothing is sent while the transaction is open');
    t.equal(delivered.length, 1);
    t.strictSame(delivered[0], { event: { type: 'alert_words', alert_words: ['committed'] }, userIds: [1] });
  });

  t.test('drops the events and the writes of a transaction that throws', async (t) => {
    delivered.length = 0;
    await t.rejects(
      realm.transact((tx) => {
        tx.realm.stmt("UPDATE realm SET description = 'rolled back'").run();
        tx.publish({ type: 'alert_words', alert_words: ['committed'] }, [1]);
        throw new Error('boom');
      }),
    );
    t.equal(delivered.length, 0);
    const row = realm.db.prepare('SELECT description FROM realm').get() as { description: string };
    t.equal(row.description, 'committed');
  });
});

t.test('group commit: actions of one turn share a commit, and a failing one undoes only itself', async (t) => {
  const realm = await newUnitRealm('group');
  t.teardown(() => realm.close());
  const delivered: QueuedEvent[] = [];
  realm.events.subscribe((events) => delivered.push(...events));
  const write = (name: string, fail: boolean) =>
    realm.transact((tx) => {
      tx.realm.stmt('INSERT INTO user_groups (name, description) VALUES (?, ?)').run(name, '');
      tx.publish({ type: 'alert_words', alert_words: [name] }, [1]);
      if (fail) throw new Error(`${name} failed`);
      return name;
    });
  const results = await Promise.allSettled([write('first', false), write('second', true), write('third', false)]);
  t.strictSame(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  const names = (realm.db.prepare('SELECT name FROM user_groups WHERE is_system_group = 0 ORDER BY id').all() as { name: string }[]).map(
    (r) => r.name,
  );
  t.strictSame(names, ['first', 'third']);
  t.strictSame(
    delivered.map((d) => eventField(d, 'alert_words')),
    [['first'], ['third']],
  );
});

t.test('group commit within a budget: a long burst commits in pieces, in order, with the loop free between', async (t) => {
  const realm = await newUnitRealm('budget');
  t.teardown(() => realm.close());
  const delivered: QueuedEvent[] = [];
  realm.events.subscribe((events) => delivered.push(...events));
  // Each action holds the thread for a third of the budget, so a commit holds about three.
  const busyMs = COMMIT_BUDGET_MS / 3;
  const commitsSeen = new Set<number>();
  const write = (n: number) =>
    realm.transact((tx) => {
      const until = performance.now() + busyMs;
      while (performance.now() < until);
      tx.realm.stmt('INSERT INTO user_groups (name, description) VALUES (?, ?)').run(`burst ${n}`, '');
      tx.publish({ type: 'alert_words', alert_words: [String(n)] }, [1]);
      commitsSeen.add(turn);
      return n;
    });
  // Counts turns of the event loop while the burst commits: a read or a poll would run there.
  let turn = 0;
  let counting = true;
  const tick = (): void => {
    turn++;
    if (counting) setImmediate(tick);
  };
  setImmediate(tick);
  const burst = Array.from({ length: 30 }, (_, n) => n);
  const results = await Promise.all(burst.map(write));
  counting = false;
  t.strictSame(results, burst, 'every action ran and answered');
  t.strictSame(
    delivered.map((d) => eventField(d, 'alert_words')),
    burst.map((n) => [String(n)]),
    'events in the order the actions were queued',
  );
  const names = (realm.db.prepare("SELECT name FROM user_groups WHERE name LIKE 'burst %' ORDER BY id").all() as { name: string }[]).map(
    (r) => r.name,
  );
  t.strictSame(
    names,
    burst.map((n) => `burst ${n}`),
  );
  // 30 actions of a third of the budget: at least 30 / 4 commits, each in a turn of its own.
  t.ok(commitsSeen.size >= 8, `the burst took ${commitsSeen.size} turns`);
});

t.test('a realm file with a newer schema is refused', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'teamchat-unit-'));
  const created = await createRealm(dataDir, { subdomain: 'future', name: 'F', ownerEmail: 'o@f.test', ownerName: 'O' });
  const Database = (await import('better-sqlite3')).default;
  const db = new Database(created.file);
  db.pragma('user_version = 999');
  db.close();
  t.throws(
    () =>
      new Realm('future', created.file, {
        externalHost: 'localhost',
        isDefault: false,
        log: pino({ level: 'silent' }),
        renderer: new Renderer(0),
      }),
    {
      message: /schema version 999/,
    },
  );
});

t.test('every connection runs with WAL and synchronous=FULL', async (t) => {
  const realm = await newUnitRealm('p');
  t.equal(realm.db.pragma('journal_mode', { simple: true }), 'wal');
  // The realm's own connection fsyncs its commits itself, off the shard thread (test/unit/wal-sync.test.ts).
  t.equal(realm.db.pragma('synchronous', { simple: true }), 1, "1 = NORMAL: the realm's connection");
  t.equal(realm.db.pragma('foreign_keys', { simple: true }), 1);
  const other = openRealmDb(realm.db.name);
  t.equal(other.pragma('synchronous', { simple: true }), 2, '2 = FULL: any other connection');
  other.close();
  realm.close();
});
