import t from 'tap';
import { versionedCache } from '../../workers/queries/cache-version';
import { newUnitRealm } from '../helpers/unit-realm';

t.test('a value built from a rolled-back action never passes for current', async (t) => {
  const realm = await newUnitRealm('cache');
  t.teardown(() => realm.close());
  const ownerName = versionedCache((r) => (r.stmt('SELECT full_name FROM users WHERE id = 1').get() as { full_name: string }).full_name);
  t.equal(ownerName(realm), 'O');

  // Both actions run in one group commit. The first renames the owner, reads the cache and
  // rolls back; the second touches the users table without renaming anyone, which brings
  // cache_version to the very number the first one had reached.
  let seenInsideFirst = '';
  const first = realm.transact((tx) => {
    tx.realm.stmt("UPDATE users SET full_name = 'Renamed' WHERE id = 1").run();
    seenInsideFirst = ownerName(tx.realm);
    throw new Error('rolled back');
  });
  const second = realm.transact((tx) => {
    tx.realm.stmt('UPDATE users SET is_active = is_active WHERE id = 1').run();
  });
  await t.rejects(first, /rolled back/);
  await second;

  t.equal(seenInsideFirst, 'Renamed', 'inside its transaction the action sees its own change');
  t.equal(ownerName(realm), 'O', 'after the commit the cache shows the committed name');
});
