/** Adding and deactivating realm emoji (openapi upload-custom-emoji; api-notes §d realm_emoji). */
import type { UploadedFile } from '../../src/wire/protocol';
import { errors } from '../lib/errors';
import { resizedEmoji } from '../lib/image-resize';
import { sniffImageType } from '../lib/image-type';
import { rolePassesPolicy } from '../lib/policy';
import { realmEmoji } from '../queries/register-realm';
import { activeEmojiByName, addCustomEmojiPolicy, emojiStillKey } from '../queries/realm-emoji';
import { activeUserIds, isAdmin, type UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';

const MIB = 1024 * 1024;
const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/** The public API's emoji name rules: lowercase letters, digits, spaces, dashes, underscores; ending in a letter or digit. */
export function checkEmojiName(name: string): void {
  if (name === '') throw errors.emojiNameEmpty();
  if (!/^[0-9a-z _-]+$/.test(name)) throw errors.invalidEmojiNameRules();
  if (!/[0-9a-z]$/.test(name)) throw errors.emojiNameEndsBadly();
}

function checkAddEmoji(
  realm: Realm,
  user: UserRow,
  name: string,
  files: readonly UploadedFile[],
): { file: UploadedFile; contentType: string } {
  checkEmojiName(name);
  if (!rolePassesPolicy(user.role, addCustomEmojiPolicy(realm))) throw errors.insufficientEmojiPermission();
  if (activeEmojiByName(realm, name)) throw errors.emojiNameTaken();
  const [file] = files;
  if (!file || files.length > 1) throw errors.oneEmojiRequired();
  const limit = realm.fileSettings.maxImageMib;
  if (file.data.byteLength > limit * MIB) throw errors.fileTooLarge(limit);
  const contentType = sniffImageType(file.data);
  if (contentType === null) throw errors.imageNotDecodable();
  return { file, contentType };
}

/** `.original` keeps the uploaded bytes beside the resized image, as the public server does. */
export function emojiImageKey(fileName: string, original = false): string {
  return `emoji/${fileName}${original ? '.original' : ''}`;
}

/**
 * POST /realm/emoji/{emoji_name}: the image, resized to 64 px off the shard thread, and the
 * original go into the realm file beside the emoji's row, in one transaction.
 */
export async function doAddEmoji(realm: Realm, user: UserRow, name: string, files: readonly UploadedFile[]): Promise<void> {
  const checked = checkAddEmoji(realm, user, name, files);
  const resized = await resizedEmoji(checked.file.data, checked.contentType);
  await realm.transact((tx) => {
    const { file, contentType } = checkAddEmoji(tx.realm, user, name, files);
    const id = Number(
      tx.realm.stmt("INSERT INTO realm_emoji (name, file_name, author_id) VALUES (?, '', ?)").run(name, user.id).lastInsertRowid,
    );
    const fileName = `${id}.${EXTENSIONS[contentType] ?? 'png'}`;
    tx.realm.stmt('UPDATE realm_emoji SET file_name = ? WHERE id = ?').run(fileName, id);
    const original = Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength);
    const insert = tx.realm.stmt('INSERT OR REPLACE INTO images (key, content_type, data) VALUES (?, ?, ?)');
    insert.run(emojiImageKey(fileName), contentType, resized.image);
    insert.run(emojiImageKey(fileName, true), contentType, original);
    if (resized.still) insert.run(emojiStillKey(`${id}.png`), 'image/png', resized.still);
    publishRealmEmoji(tx);
  });
}

/** DELETE /realm/emoji/{emoji_name}: deactivates (messages that used it keep their image); the author or administrators. */
export async function doDeactivateEmoji(realm: Realm, user: UserRow, name: string): Promise<void> {
  await realm.transact((tx) => {
    const row = activeEmojiByName(tx.realm, name);
    if (!row) throw errors.noSuchEmoji(name);
    if (!isAdmin(user) && row.author_id !== user.id) throw errors.notEmojiAuthor();
    tx.realm.stmt('UPDATE realm_emoji SET deactivated = 1 WHERE id = ?').run(row.id);
    publishRealmEmoji(tx);
  });
}

function publishRealmEmoji(tx: Txn): void {
  tx.publish({ type: 'realm_emoji', op: 'update', realm_emoji: realmEmoji(tx.realm) }, activeUserIds(tx.realm));
}
