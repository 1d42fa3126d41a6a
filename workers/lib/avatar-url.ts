/**
 * Uploaded avatars are served from the realm at this prefix; a URL with it is one that
 * `client_extavatar` clients cannot compute, so it is never replaced by null (SPEC User.avatar_url).
 */
export const UPLOADED_AVATAR_PREFIX = '/user_avatars/';

export function isUploadedAvatarUrl(url: unknown): boolean {
  return typeof url === 'string' && url.startsWith(UPLOADED_AVATAR_PREFIX);
}
