import t from 'tap';
import { storedStream } from '../../workers/queries/streams';
import { storedUser } from '../../workers/queries/users';
import { newUnitRealm } from '../helpers/unit-realm';

// The typed row readers (Realm.rows, Realm.oneRow, storedRow): types only, over the same
// cached statements, and a missing row that must exist is an error, never an undefined row.
t.test('row readers read through the cached statements and refuse a missing row', async (t) => {
  const realm = await newUnitRealm('readers');
  t.teardown(() => realm.close());

  const sql = 'SELECT id, full_name FROM users WHERE id = ?';
  t.equal(
    realm.rows<{ id: number; full_name: string }, [number]>(sql),
    realm.stmt(sql),
    'rows() is stmt() with a type: one prepared statement',
  );

  t.strictSame(
    realm.oneRow<{ n: number }, [number]>('SELECT count(*) AS n FROM users WHERE id = ?', -1),
    { n: 0 },
    'an aggregate yields its row',
  );
  t.throws(
    () => realm.oneRow<{ id: number }, [number]>('SELECT id FROM users WHERE id = ?', -1),
    { message: 'no row from: SELECT id FROM users WHERE id = ?' },
    'oneRow names the query that yielded no row',
  );

  const general = realm.rows<{ id: number }, [string]>('SELECT id FROM streams WHERE name = ?').get('general');
  if (!general) throw new Error('a new realm has the stream general');
  t.strictSame(storedStream(realm, general.id).name, 'general', 'storedStream reads the stream');
  t.throws(() => storedStream(realm, 999_999), { message: 'stream 999999 vanished inside its transaction' });
  t.throws(() => storedUser(realm, 999_999), { message: 'user 999999 vanished inside its transaction' });
});
