import { errors } from '../lib/errors';
import { hashPassword } from '../lib/secrets';
import { activeUserIds, type UserRow } from '../queries/users';
import type { Realm } from '../realm';
import { endSessionsTxn } from './sessions';
import { MIN_PASSWORD_LENGTH } from './settings';

/*
 * What only the server's operator does, from the management CLI (issue 23): no API route
 * leads here, so these take no acting user.
 */

/** Sets a password without the old one; the user's web sessions end, as on any password change. */
export async function doSetPassword(realm: Realm, user: UserRow, password: string): Promise<void> {
  if (password.length < MIN_PASSWORD_LENGTH) throw errors.passwordTooWeak();
  const passwordHash = await hashPassword(password);
  await realm.transact((tx) => {
    tx.realm.stmt('UPDATE users SET password_hash = ? WHERE id = ?').run(passwordHash, user.id);
    endSessionsTxn(tx, user.id);
  });
}

/**
 * Deactivates or reactivates the organization. Deactivation tells every client
 * (api-notes §d realm deactivated) and ends every web session; from then on each request
 * gets REALM_DEACTIVATED (dispatch reads realm.info).
 */
export async function doSetRealmDeactivated(realm: Realm, deactivated: boolean): Promise<void> {
  if (Boolean(realm.info.deactivated) === deactivated) {
    throw errors.badRequest(deactivated ? 'The organization is already deactivated' : 'The organization is already active');
  }
  await realm.transact((tx) => {
    tx.realm.stmt('UPDATE realm SET deactivated = ? WHERE id = 1').run(deactivated ? 1 : 0);
    if (deactivated) {
      tx.realm.stmt('DELETE FROM sessions').run();
      tx.publish({ type: 'realm', op: 'deactivated', realm_id: 1 }, activeUserIds(tx.realm));
    }
  });
  // The row dispatch checks on every request, read once when the realm opened.
  realm.info.deactivated = deactivated ? 1 : 0;
}
