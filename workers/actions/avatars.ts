/** Uploading and deleting one's avatar (api-notes §a tail; §d realm_user avatar update). */
import type { UploadedFile } from '../../src/wire/protocol';
import { errors } from '../lib/errors';
import { AVATAR_SIZE, MEDIUM_AVATAR_SIZE, squareAvatar } from '../lib/image-resize';
import { sniffImageType } from '../lib/image-type';
import { avatarChangesDisabled } from '../queries/realm-emoji';
import { activeUserIds, avatarUrl, avatarUrlMedium, isAdmin, type UserRow, storedUser } from '../queries/users';
import type { Realm, Txn } from '../realm';

const MIB = 1024 * 1024;

export function checkAvatarUpload(
  realm: Realm,
  user: UserRow,
  files: readonly UploadedFile[],
): { file: UploadedFile; contentType: string } {
  if (avatarChangesDisabled(realm) && !isAdmin(user)) throw errors.avatarChangesDisabled();
  const [file] = files;
  if (!file || files.length > 1) throw errors.oneImageRequired();
  const limit = realm.fileSettings.maxImageMib;
  if (file.data.byteLength > limit * MIB) throw errors.fileTooLarge(limit);
  const contentType = sniffImageType(file.data);
  if (contentType === null) throw errors.imageNotDecodable();
  return { file, contentType };
}

/**
 * Stores the 100 px and 500 px square versions and the original in the realm file (resized off
 * the shard thread first, then written in one transaction); `avatar_version` moves on so clients
 * reload it.
 */
export async function doSetAvatar(realm: Realm, user: UserRow, files: readonly UploadedFile[]): Promise<UserRow> {
  const { file, contentType } = checkAvatarUpload(realm, user, files);
  const [small, medium] = await Promise.all([squareAvatar(file.data, AVATAR_SIZE), squareAvatar(file.data, MEDIUM_AVATAR_SIZE)]);
  return realm.transact((tx) => {
    // Settings may have changed while the images were resized.
    checkAvatarUpload(tx.realm, user, files);
    const original = Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength);
    const insert = tx.realm.stmt('INSERT OR REPLACE INTO images (key, content_type, data) VALUES (?, ?, ?)');
    insert.run(avatarKey(user.id), 'image/png', small);
    insert.run(avatarKey(user.id, 'medium'), 'image/png', medium);
    insert.run(avatarKey(user.id, 'original'), contentType, original);
    return setSourceTxn(tx, user.id, 'U');
  });
}

export async function doDeleteAvatar(realm: Realm, user: UserRow): Promise<UserRow> {
  if (avatarChangesDisabled(realm) && !isAdmin(user)) throw errors.avatarChangesDisabled();
  return realm.transact((tx) => {
    const remove = tx.realm.stmt('DELETE FROM images WHERE key = ?');
    for (const version of AVATAR_VERSIONS) remove.run(avatarKey(user.id, version));
    return setSourceTxn(tx, user.id, 'G');
  });
}

const AVATAR_VERSIONS = ['default', 'medium', 'original'] as const;
type AvatarVersion = (typeof AVATAR_VERSIONS)[number];

/** The 100 px avatar keeps the key that realm files from before resizing hold the original under. */
export function avatarKey(userId: number, version: AvatarVersion = 'default'): string {
  return version === 'default' ? `avatar/${userId}` : `avatar/${userId}/${version}`;
}

function setSourceTxn(tx: Txn, userId: number, source: 'U' | 'G'): UserRow {
  tx.realm.stmt('UPDATE users SET avatar_source = ?, avatar_version = avatar_version + 1 WHERE id = ?').run(source, userId);
  const updated = storedUser(tx.realm, userId);
  tx.publish(
    {
      type: 'realm_user',
      op: 'update',
      person: {
        user_id: userId,
        avatar_source: source,
        avatar_url: avatarUrl(updated),
        avatar_url_medium: avatarUrlMedium(updated),
        avatar_version: updated.avatar_version,
      },
    },
    activeUserIds(tx.realm),
  );
  return updated;
}
