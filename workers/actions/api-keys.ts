import { generateApiKey } from '../lib/secrets';
import { botAdministratorIds } from '../queries/accounts';
import { type UserRow, storedUser } from '../queries/users';
import type { Realm } from '../realm';

/**
 * POST /users/me/api_key/regenerate: a new key; the old one fails from the next request on,
 * because the users table's change bumps cache_version and with it the authentication cache
 * (actions/auth.ts). A bot's administrators hear of its new key (realm_bot update api_key).
 */
export function doRegenerateApiKey(realm: Realm, user: UserRow): Promise<string> {
  return realm.transact((tx) => {
    const apiKey = generateApiKey();
    tx.realm.stmt('UPDATE users SET api_key = ? WHERE id = ?').run(apiKey, user.id);
    if (user.is_bot === 1) {
      const bot = storedUser(tx.realm, user.id);
      tx.publish({ type: 'realm_bot', op: 'update', bot: { user_id: user.id, api_key: apiKey } }, botAdministratorIds(tx.realm, bot));
    }
    return apiKey;
  });
}
