import { errors } from '../lib/errors';
import { pointerOf } from '../queries/pointer';
import type { UserRow } from '../queries/users';
import type { Realm } from '../realm';
import { ALL_USER_MESSAGES } from '../queries/user-message-rows';

/**
 * POST /users/me/pointer (legacy): the pointer only moves forward, and only to a message the
 * user received, as the endpoint behaved before its removal; moving it back is a silent no-op.
 */
export function doUpdatePointer(realm: Realm, user: UserRow, messageId: number): Promise<void> {
  return realm.transact((tx) => {
    if (messageId <= pointerOf(tx.realm, user.id)) return;
    const received = tx.realm.stmt(`SELECT 1 FROM ${ALL_USER_MESSAGES} WHERE user_id = ? AND message_id = ?`).get(user.id, messageId);
    if (!received) throw errors.invalidMessageId();
    tx.realm
      .stmt(
        'INSERT INTO user_pointers (user_id, message_id) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET message_id = excluded.message_id',
      )
      .run(user.id, messageId);
    tx.publish({ type: 'pointer', pointer: messageId }, [user.id]);
  });
}
