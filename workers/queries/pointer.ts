import type { Realm } from '../realm';

/**
 * The legacy reading pointer (zulip-js `users.me.pointer`; removed from the public API long
 * ago, kept because that client still offers it): the ID of the message the user last read up
 * to in the home view, -1 before any.
 */
export function pointerOf(realm: Realm, userId: number): number {
  const row = realm.rows<{ message_id: number }, [number]>('SELECT message_id FROM user_pointers WHERE user_id = ?').get(userId);
  return row?.message_id ?? -1;
}
