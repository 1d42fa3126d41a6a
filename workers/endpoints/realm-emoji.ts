/** Realm emoji: list, add, deactivate, and the image URL `source_url` names (openapi upload-custom-emoji, get-custom-emoji). */
import { z } from 'zod';
import { doAddEmoji, doDeactivateEmoji, emojiImageKey } from '../actions/realm-emoji';
import { errors } from '../lib/errors';
import { imageReply } from '../lib/file-response';
import { BYTES, openRoute, userRoute } from '../lib/route';
import { imageByKey } from '../queries/attachments';
import { emojiStillKey } from '../queries/realm-emoji';
import { realmEmoji } from '../queries/register-realm';
import { EMPTY, realmEmojiMapSchema } from '../schemas/objects';

/** Serves the image kept under `keyOf(file)`. */
function emojiImageRoute(keyOf: (file: string) => string) {
  return openRoute(z.object({ realm_id: z.string(), emoji_file: z.string() }), BYTES, ({ realm, frame }, p) => {
    const image = imageByKey(realm, keyOf(p.emoji_file));
    if (!image) throw errors.fileNotFound();
    return imageReply(p.emoji_file, image, frame.range);
  });
}

/** GET /user_avatars/{realm_id}/emoji/images/{file} (root): the URL a realm emoji's `source_url` names. */
export const getEmojiImage = emojiImageRoute((file) => emojiImageKey(file));

/** GET /user_avatars/{realm_id}/emoji/images/still/{file} (root): an animated emoji's `still_url`. */
export const getEmojiStill = emojiImageRoute(emojiStillKey);

/** GET /realm/emoji (openapi get-custom-emoji). */
export const getRealmEmoji = userRoute(z.object({}), z.strictObject({ emoji: realmEmojiMapSchema }), ({ realm }) => ({
  emoji: realmEmoji(realm),
}));

/** POST /realm/emoji/{emoji_name}: one image in any field. */
export const postRealmEmoji = userRoute(z.object({ emoji_name: z.string() }), EMPTY, async ({ realm, user, frame }, p) => {
  // Spaces are stored as underscores, as the public API does (so `:sparkle cat:` is `sparkle_cat`).
  await doAddEmoji(realm, user, p.emoji_name.trim().replace(/ /g, '_'), frame.files);
  return {};
});

export const deleteRealmEmoji = userRoute(z.object({ emoji_name: z.string() }), EMPTY, async ({ realm, user }, p) => {
  await doDeactivateEmoji(realm, user, p.emoji_name);
  return {};
});
