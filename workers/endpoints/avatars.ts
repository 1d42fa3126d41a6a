/** Uploading and deleting one's avatar, GET /avatar redirects and the avatar image URLs (api-notes §a tail). */
import { z } from 'zod';
import { avatarKey, doDeleteAvatar, doSetAvatar } from '../actions/avatars';
import { BinaryReply } from '../lib/binary-reply';
import { errors } from '../lib/errors';
import { imageReply } from '../lib/file-response';
import { BYTES, openRoute, userRoute } from '../lib/route';
import { imageByKey } from '../queries/attachments';
import { avatarUrl, avatarUrlMedium, externalAvatarUrl, userByDeliveryEmail, userByEmail, userById, type UserRow } from '../queries/users';
import type { Realm } from '../realm';

/** POST /users/me/avatar: one image in any field. */
export const postAvatar = userRoute(z.object({}), z.strictObject({ avatar_url: z.string() }), async ({ realm, user, frame }) => {
  const updated = await doSetAvatar(realm, user, frame.files);
  return { avatar_url: avatarUrl(updated) };
});

export const deleteAvatar = userRoute(z.object({}), z.strictObject({ avatar_url: z.string() }), async ({ realm, user }) => {
  const updated = await doDeleteAvatar(realm, user);
  return { avatar_url: avatarUrl(updated) };
});

function userByEmailOrId(realm: Realm, emailOrId: string): UserRow | undefined {
  if (/^\d{1,15}$/.test(emailOrId)) return userById(realm, Number(emailOrId));
  return userByEmail(realm, emailOrId) ?? userByDeliveryEmail(realm, emailOrId);
}

/**
 * GET /avatar/{email_or_id}[/medium] (root; api-notes §a tail): 302 to the uploaded avatar or
 * the external provider's picture; an unknown user gets the picture for the string as an
 * email, version 1. The request's query string goes along.
 */
function avatarRedirect(medium: boolean) {
  return openRoute(z.object({ email_or_id: z.string() }), BYTES, ({ realm, frame }, p) => {
    const user = userByEmailOrId(realm, p.email_or_id);
    let target = user ? (medium ? avatarUrlMedium(user) : avatarUrl(user)) : externalAvatarUrl(p.email_or_id, 1);
    const query = new URLSearchParams(frame.params).toString();
    if (query !== '') target += (target.includes('?') ? '&' : '?') + query;
    return BinaryReply.redirect(target);
  });
}

export const getAvatar = avatarRedirect(false);
export const getAvatarMedium = avatarRedirect(true);

/**
 * GET /user_avatars/{realm_id}/{user_id}[-medium].png (root): an uploaded avatar, 100 px square
 * or 500 px for `-medium`; an avatar stored before resizing has only its original, served for both.
 */
export const getAvatarImage = openRoute(z.object({ realm_id: z.string(), avatar_file: z.string() }), BYTES, ({ realm, frame }, p) => {
  const match = /^(\d{1,15})(-medium)?\.png$/.exec(p.avatar_file);
  const userId = match ? Number(match[1]) : undefined;
  const medium = userId !== undefined && match?.[2] !== undefined ? imageByKey(realm, avatarKey(userId, 'medium')) : undefined;
  const image = userId === undefined ? undefined : (medium ?? imageByKey(realm, avatarKey(userId)));
  if (!image) throw errors.fileNotFound();
  return imageReply(p.avatar_file, image, frame.range);
});
