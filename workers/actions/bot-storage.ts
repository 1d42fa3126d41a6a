import { errors } from '../lib/errors';
import { BOT_STORAGE_LIMIT_CHARS, botStorageSize } from '../queries/bot-storage';
import type { UserRow } from '../queries/users';
import type { Realm } from '../realm';

/*
 * PUT and DELETE /bot_storage: a bot's own keys and values (the public server's bot storage,
 * which the Python client's bot library reads and writes). Nothing is announced: the storage
 * is the bot's alone and no client state shows it.
 */

/** Only bots have a storage (the public server's rule). */
export function checkIsBot(user: UserRow): void {
  if (!user.is_bot) throw errors.mustBeBot();
}

/** Characters, as the public server counts a string (code points, not UTF-16 units). */
function characterCount(text: string): number {
  let surrogatePairs = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) surrogatePairs++;
  }
  return text.length - surrogatePairs;
}

/** Stores every entry, or none when the bot's storage would then pass its limit. */
export async function doSetBotStorage(realm: Realm, bot: UserRow, entries: Readonly<Record<string, string>>): Promise<void> {
  checkIsBot(bot);
  await realm.transact((tx) => {
    let difference = 0;
    for (const [key, value] of Object.entries(entries)) {
      difference += characterCount(key) + characterCount(value) - botStorageSize(tx.realm, bot.id, key);
    }
    const size = botStorageSize(tx.realm, bot.id) + difference;
    if (size > BOT_STORAGE_LIMIT_CHARS) throw errors.botStorageLimit(size - BOT_STORAGE_LIMIT_CHARS, BOT_STORAGE_LIMIT_CHARS);
    const upsert = tx.realm.stmt(
      'INSERT INTO bot_storage (bot_id, key, value) VALUES (?, ?, ?) ON CONFLICT (bot_id, key) DO UPDATE SET value = excluded.value',
    );
    for (const [key, value] of Object.entries(entries)) upsert.run(bot.id, key, value);
  });
}

/** Removes `keys` (every key without them); a key the bot does not have removes nothing. */
export async function doRemoveBotStorage(realm: Realm, bot: UserRow, keys: readonly string[] | undefined): Promise<void> {
  checkIsBot(bot);
  await realm.transact((tx) => {
    if (keys === undefined) {
      tx.realm.stmt('DELETE FROM bot_storage WHERE bot_id = ?').run(bot.id);
      return;
    }
    const remove = tx.realm.stmt('DELETE FROM bot_storage WHERE bot_id = ? AND key = ?');
    let removed = 0;
    for (const key of keys) removed += remove.run(bot.id, key).changes;
    // As the public server counts: fewer rows than keys named (a repeated key too) is an error.
    if (removed < keys.length) throw errors.botStorageKeyMissing();
  });
}
