import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import pino from 'pino';
import { createRealm } from '../../workers/db/create-realm';
import { openRealmDb } from '../../workers/db/open';
import type { QueuedEvent } from '../../workers/events/outbox';
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
