/** Uploading and deleting one's avatar (api-notes §a tail; §d realm_user avatar update). */
import type { UploadedFile } from '../../src/wire/protocol';
import { errors } from '../lib/errors';
import { sniffImageType } from '../lib/image-type';
import { avatarChangesDisabled } from '../queries/realm-emoji';
import { activeUserIds, avatarUrl, avatarUrlMedium, isAdmin, userById, type UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';

const MIB = 1024 * 1024;

export function checkAvatarUpload(realm: Realm, user: UserRow, files: readonly UploadedFile[]): { file: UploadedFile; contentType: string } {
  if (avatarChangesDisabled(realm) && !isAdmin(user)) throw errors.avatarChangesDisabled();
  const [file] = files;
  if (!file || files.length > 1) throw errors.oneImageRequired();
  const limit = realm.fileSettings.maxImageMib;
  if (file.data.byteLength > limit * MIB) throw errors.fileTooLarge(limit);
  const contentType = sniffImageType(file.data);
  if (contentType === null) throw errors.badImage('Could not decode image; did you upload an image file?');
  return { file, contentType };
}

/** Stores the image in the realm file; `avatar_version` moves on so clients reload it. */
export async function doSetAvatar(realm: Realm, user: UserRow, files: readonly UploadedFile[]): Promise<UserRow> {
  const { file, contentType } = checkAvatarUpload(realm, user, files);
  return realm.transact((tx) => {
    const data = Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength);
    tx.realm.stmt('INSERT OR REPLACE INTO images (key, content_type, data) VALUES (?, ?, ?)').run(avatarKey(user.id), contentType, data);
    return setSourceTxn(tx, user.id, 'U');
  });
}

export async function doDeleteAvatar(realm: Realm, user: UserRow): Promise<UserRow> {
  if (avatarChangesDisabled(realm) && !isAdmin(user)) throw errors.avatarChangesDisabled();
  return realm.transact((tx) => {
    tx.realm.stmt('DELETE FROM images WHERE key = ?').run(avatarKey(user.id));
    return setSourceTxn(tx, user.id, 'G');
  });
}

export function avatarKey(userId: number): string {
  return `avatar/${userId}`;
}

function setSourceTxn(tx: Txn, userId: number, source: 'U' | 'G'): UserRow {
  tx.realm.stmt('UPDATE users SET avatar_source = ?, avatar_version = avatar_version + 1 WHERE id = ?').run(source, userId);
  const updated = userById(tx.realm, userId) as UserRow;
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
