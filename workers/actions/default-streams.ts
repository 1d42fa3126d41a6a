import { errors } from '../lib/errors';
import { defaultStreamObjects, nonGuestUserIds } from '../queries/default-streams';
import { isAdmin, type UserRow } from '../queries/users';
import type { Realm } from '../realm';
import { accessStreamById } from '../queries/stream-access';

/**
 * POST /default_streams (administrators): new users will be subscribed to the stream
 * (doCreateUser). Private streams cannot be default; adding one twice changes nothing.
 */
export async function doAddDefaultStream(realm: Realm, actor: UserRow, streamId: number): Promise<void> {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
  const stream = accessStreamById(realm, actor, streamId, false);
  if (stream.invite_only === 1) throw errors.privateStreamCannotBeDefault();
  await setDefault(realm, stream.id, 1);
}

/** DELETE /default_streams (administrators). */
export async function doRemoveDefaultStream(realm: Realm, actor: UserRow, streamId: number): Promise<void> {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
  const stream = accessStreamById(realm, actor, streamId, false);
  await setDefault(realm, stream.id, 0);
}

/** Writes the flag and sends everyone but guests the whole new list (api-notes §d default_streams). */
async function setDefault(realm: Realm, streamId: number, isDefault: 0 | 1): Promise<void> {
  await realm.transact((tx) => {
    tx.realm.stmt('UPDATE streams SET is_default = ? WHERE id = ?').run(isDefault, streamId);
    tx.publish({ type: 'default_streams', default_streams: defaultStreamObjects(tx.realm) }, nonGuestUserIds(tx.realm));
  });
}
