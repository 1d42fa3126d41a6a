import fs from 'node:fs';
import t from 'tap';
import type { QueuedEvent } from '../../workers/events/outbox';
import { newUnitRealm } from '../helpers/unit-realm';

// A realm's commit is made durable off the shard thread (workers/db/wal-sync.ts): its requests
// are answered, and its events delivered, only once the WAL file has been fsynced; automatic
// checkpoints never run inside a commit (workers/db/checkpointer.ts).
t.test('durability off the shard thread', async (t) => {
  const realm = await newUnitRealm('walsync');
  t.teardown(() => realm.close());
  const delivered: QueuedEvent[] = [];
  realm.events.subscribe((events) => delivered.push(...events));

  t.test('a commit is answered and its events delivered only after the WAL is fsynced', async (t) => {
    const original = fs.fdatasync;
    const held: (() => void)[] = [];
    // Hold every fsync of the WAL until the test lets it go.
    const holding = ((fd: number, callback: (err: NodeJS.ErrnoException | null) => void) => {
      held.push(() => original(fd, callback));
    }) as typeof fs.fdatasync;
    fs.fdatasync = holding;
    t.teardown(() => {
      fs.fdatasync = original;
    });
    let answered = false;
    const commit = realm
      .transact((tx) => {
        tx.realm.stmt("UPDATE realm SET description = 'durable'").run();
        tx.publish({ type: 'realm', op: 'update_dict', property: 'default', data: {} }, [1]);
        return 'done';
      })
      .then((value) => {
        answered = true;
        return value;
      });
    // The commit's turn, then several more: nothing is answered while its fsync is held.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    t.strictSame([answered, delivered.length, held.length], [false, 0, 1], 'not answered, nothing delivered, one fsync waiting');
    const later = realm.transact((tx) => tx.realm.stmt("UPDATE realm SET description = 'later'").run().changes);
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    t.equal(held.length, 1, 'a commit made while an fsync runs waits for the next one');
    held.shift()?.();
    t.equal(await commit, 'done');
    t.strictSame(
      delivered,
      [{ event: { type: 'realm', op: 'update_dict', property: 'default', data: {} }, userIds: [1] }],
      'its event after the fsync',
    );
    for (let turn = 0; turn < 100 && held.length === 0; turn++) await new Promise((resolve) => setImmediate(resolve));
    t.equal(held.length, 1, 'then its own fsync starts');
    held.shift()?.();
    t.equal(await later, 1, 'the later commit with the next fsync');
  });

  t.test("the realm's connection never checkpoints inside a commit", async (t) => {
    t.strictSame(
      [realm.db.pragma('wal_autocheckpoint', { simple: true }), realm.db.pragma('synchronous', { simple: true })],
      [0, 1],
      'automatic checkpoints off; synchronous NORMAL, with the fsync done by the realm',
    );
  });
});
