/** files: avatars and realm emoji: upload, delete, list, and the root image URLs. */
import { z } from 'zod';
import { avatarKey, doDeleteAvatar, doSetAvatar } from '../actions/avatars';
import { doAddEmoji, doDeactivateEmoji, emojiImageKey } from '../actions/realm-emoji';
import { BinaryReply } from '../lib/binary-reply';
import { errors } from '../lib/errors';
import { fileReply } from '../lib/file-response';
import { openRoute, userRoute } from '../lib/route';
import { imageByKey } from '../queries/attachments';
import { realmEmoji } from '../queries/register-realm';
import { avatarUrl, avatarUrlMedium, externalAvatarUrl, userByDeliveryEmail, userByEmail, userById, type UserRow } from '../queries/users';
import type { Realm } from '../realm';

/** POST /users/me/avatar: one image in any field. */
export const postAvatar = userRoute(z.object({}), async ({ realm, user, frame }) => {
  const updated = await doSetAvatar(realm, user, frame.files);
  return { avatar_url: avatarUrl(updated) };
});

export const deleteAvatar = userRoute(z.object({}), async ({ realm, user }) => {
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
  return openRoute(z.object({ email_or_id: z.string() }), ({ realm, frame }, p) => {
    const user = userByEmailOrId(realm, p.email_or_id);
    let target = user ? (medium ? avatarUrlMedium(user) : avatarUrl(user)) : externalAvatarUrl(p.email_or_id, 1);
    const query = new URLSearchParams(frame.params).toString();
    if (query !== '') target += (target.includes('?') ? '&' : '?') + query;
    return BinaryReply.redirect(target);
  });
}

export const getAvatar = avatarRedirect(false);
export const getAvatarMedium = avatarRedirect(true);

/** GET /user_avatars/{realm_id}/{user_id}[-medium].png (root): an uploaded avatar's bytes. */
export const getAvatarImage = openRoute(z.object({ realm_id: z.string(), avatar_file: z.string() }), ({ realm, frame }, p) => {
  const match = /^(\d{1,15})(?:-medium)?\.png$/.exec(p.avatar_file);
  const image = match ? imageByKey(realm, avatarKey(Number(match[1]))) : undefined;
  if (!image) throw errors.fileNotFound();
  return imageReply(p.avatar_file, image, frame.range);
});

/** GET /user_avatars/{realm_id}/emoji/images/{file} (root): the URL a realm emoji's `source_url` names. */
export const getEmojiImage = openRoute(z.object({ realm_id: z.string(), emoji_file: z.string() }), ({ realm, frame }, p) => {
  const image = imageByKey(realm, emojiImageKey(p.emoji_file));
  if (!image) throw errors.fileNotFound();
  return imageReply(p.emoji_file, image, frame.range);
});

function imageReply(name: string, image: { content_type: string; data: Buffer }, range: string | undefined): BinaryReply {
  const { data } = image;
  return fileReply(
    { name, contentType: image.content_type, size: data.length, read: (start, end) => data.subarray(start, end) },
    range,
    // The URLs carry the version (avatars) or a new file name (emoji): safe to cache long.
    'public, max-age=31536000',
  );
}

/** GET /realm/emoji (openapi get-custom-emoji). */
export const getRealmEmoji = userRoute(z.object({}), ({ realm }) => ({ emoji: realmEmoji(realm) }));

/** POST /realm/emoji/{emoji_name}: one image in any field. */
export const postRealmEmoji = userRoute(z.object({ emoji_name: z.string() }), async ({ realm, user, frame }, p) => {
  await doAddEmoji(realm, user, p.emoji_name, frame.files);
  return {};
});

export const deleteRealmEmoji = userRoute(z.object({ emoji_name: z.string() }), async ({ realm, user }, p) => {
  await doDeactivateEmoji(realm, user, p.emoji_name);
  return {};
});
