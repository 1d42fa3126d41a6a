import { z } from 'zod';
import { checkIsBot, doRemoveBotStorage, doSetBotStorage } from '../actions/bot-storage';
import { errors } from '../lib/errors';
import { json } from '../lib/params';
import { userRoute } from '../lib/route';
import { botStorageEntries } from '../queries/bot-storage';
import { EMPTY } from '../schemas/objects';

// Both lists are JSON-encoded, as the Python client sends them; absent means every key.
const keysParam = json(z.array(z.string()).optional());

/** GET /bot_storage: the bot's entries for `keys`, or all of them. */
export const getBotStorage = userRoute(
  z.object({ keys: keysParam }),
  z.strictObject({ storage: z.record(z.string(), z.string()) }),
  ({ realm, user }, p) => {
    checkIsBot(user);
    const storage = botStorageEntries(realm, user.id, p.keys);
    if (storage === null) throw errors.botStorageKeyMissing();
    return { storage };
  },
);

/** PUT /bot_storage: `storage` is a JSON dict of string keys to string values. */
export const putBotStorage = userRoute(z.object({ storage: json(z.record(z.string(), z.string())) }), EMPTY, async ({ realm, user }, p) => {
  await doSetBotStorage(realm, user, p.storage);
  return {};
});

/** DELETE /bot_storage: removes `keys`, or every key. */
export const deleteBotStorage = userRoute(z.object({ keys: keysParam }), EMPTY, async ({ realm, user }, p) => {
  await doRemoveBotStorage(realm, user, p.keys);
  return {};
});
