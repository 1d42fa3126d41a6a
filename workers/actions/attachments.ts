/**
 * Uploads and their lifecycle (SPEC States "Attachment"; api-notes POST /user_uploads,
 * GET /attachments, §d `attachment`): upload, claim by a message, delete with the last linking
 * message, delete on request, expire when never claimed.
 */
import { randomBytes } from 'node:crypto';
import type { UploadedFile } from '../../src/wire/protocol';
import { errors } from '../lib/errors';
import { storedRow } from '../lib/stored-row';
import {
  attachmentById,
  attachmentByPath,
  attachmentIdsOfMessages,
  attachmentObject,
  canReadAttachment,
  CHUNK_BYTES,
  expiredUnclaimed,
  isLinked,
  uploadSpaceUsed,
  type AttachmentRow,
} from '../queries/attachments';
import type { UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';

const MIB = 1024 * 1024;
// Every realm file holds one realm, whose row id is 1: the <realm_id> of upload paths.
const REALM_ROW_ID = 1;
const UPLOADS_PREFIX = '/user_uploads/';

/** Exactly one file, within the size limit (api-notes POST /user_uploads errors). */
export function checkSingleFile(files: readonly UploadedFile[], limitMib: number): UploadedFile {
  const [file] = files;
  if (!file) throw errors.noFileToUpload();
  if (files.length > 1) throw errors.oneFileAtATime();
  if (file.data.byteLength > limitMib * MIB) throw errors.fileTooLarge(limitMib);
  return file;
}

/**
 * A file name safe in a URL path, as the public API sanitizes it: compatibility-normalized,
 * only letters, digits, `_`, `.`, `-` and spaces kept, runs of spaces and dashes made one dash,
 * no leading dots.
 */
export function sanitizeFileName(raw: string): string {
  const kept = raw
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}_\s.-]/gu, '')
    .trim()
    .replace(/[-\s]+/g, '-')
    // no hidden files and no relative segments ("../" lost its slashes above)
    .replace(/^\.+/, '');
  return kept === '' || kept === '.' || kept === '..' ? 'uploaded-file' : kept;
}

/** POST /user_uploads: stores the file in the realm file and tells the uploader. Returns the URL path. */
export async function doUpload(realm: Realm, user: UserRow, file: UploadedFile): Promise<string> {
  const name = sanitizeFileName(file.filename);
  const pathId = `${REALM_ROW_ID}/${randomBytes(1).toString('hex')}/${randomBytes(18).toString('base64url')}/${name}`;
  await realm.transact((tx) => {
    // Checked in the writing transaction, so uploads arriving together cannot pass it together.
    const quotaMib = realm.fileSettings.realmQuotaMib;
    if (quotaMib !== null && uploadSpaceUsed(realm) + file.data.byteLength > quotaMib * MIB) throw errors.uploadQuotaExceeded();
    const id = Number(
      realm
        .stmt('INSERT INTO attachments (path_id, name, content_type, size, owner_id, create_time) VALUES (?, ?, ?, ?, ?, ?)')
        .run(pathId, name, file.contentType, file.data.byteLength, user.id, realm.clock.now()).lastInsertRowid,
    );
    const insertChunk = realm.stmt('INSERT INTO attachment_chunks (attachment_id, seq, data) VALUES (?, ?, ?)');
    const data = file.data;
    // Views of the received bytes: nothing is copied before SQLite writes them.
    for (let seq = 0, offset = 0; offset < data.byteLength || seq === 0; seq++, offset += CHUNK_BYTES) {
      insertChunk.run(id, seq, Buffer.from(data.buffer, data.byteOffset + offset, Math.min(CHUNK_BYTES, data.byteLength - offset)));
    }
    publishAttachment(tx, 'add', storedRow(attachmentById(realm, id), `attachment ${id}`));
  });
  return `${UPLOADS_PREFIX}${pathId}`;
}

function publishAttachment(tx: Txn, op: 'add' | 'update', row: AttachmentRow): void {
  tx.publish({ type: 'attachment', op, attachment: attachmentObject(tx.realm, row), upload_space_used: uploadSpaceUsed(tx.realm) }, [
    row.owner_id,
  ]);
}

function publishRemoved(tx: Txn, row: AttachmentRow): void {
  tx.publish({ type: 'attachment', op: 'remove', attachment: { id: row.id }, upload_space_used: uploadSpaceUsed(tx.realm) }, [
    row.owner_id,
  ]);
}

/** The upload a "/user_uploads/..." path of rendered content names, if it exists here. */
function attachmentForLink(realm: Realm, link: string): AttachmentRow | undefined {
  if (!link.startsWith(UPLOADS_PREFIX)) return undefined;
  let pathId: string;
  try {
    pathId = decodeURIComponent(link.slice(UPLOADS_PREFIX.length));
  } catch {
    return undefined;
  }
  return attachmentByPath(realm, pathId);
}

/**
 * Sending or editing a message claims the uploads it links (api-notes Summary 18), those the
 * sender may read; an edit drops links the new content no longer has. Owners hear `update`.
 */
export function linkAttachmentsTxn(tx: Txn, messageId: number, sender: UserRow, links: readonly string[], replacing: boolean): void {
  const realm = tx.realm;
  const wanted = new Map<number, AttachmentRow>();
  for (const link of links) {
    const row = attachmentForLink(realm, link);
    if (row && canReadAttachment(realm, sender, row)) wanted.set(row.id, row);
  }
  const changed = new Set<number>();
  if (replacing) {
    for (const id of attachmentIdsOfMessages(realm, [messageId])) {
      if (wanted.has(id)) continue;
      realm.stmt('DELETE FROM attachment_messages WHERE attachment_id = ? AND message_id = ?').run(id, messageId);
      changed.add(id);
    }
  }
  const link = realm.stmt('INSERT OR IGNORE INTO attachment_messages (attachment_id, message_id) VALUES (?, ?)');
  for (const id of wanted.keys()) if (link.run(id, messageId).changes > 0) changed.add(id);
  for (const id of changed) {
    const row = attachmentById(realm, id);
    if (row) publishAttachment(tx, 'update', row);
  }
}

/**
 * After messages are deleted (directly, by topic or by retention): uploads no message links
 * any more go too (SPEC States "Attachment"); the others' owners hear the shorter list.
 * `attachmentIds`: what the deleted messages linked, read before they went.
 */
export function afterMessagesDeletedTxn(tx: Txn, attachmentIds: readonly number[]): void {
  for (const id of attachmentIds) {
    const row = attachmentById(tx.realm, id);
    if (!row) continue;
    if (isLinked(tx.realm, id)) publishAttachment(tx, 'update', row);
    else deleteAttachmentTxn(tx, row);
  }
}

function deleteAttachmentTxn(tx: Txn, row: AttachmentRow): void {
  tx.realm.stmt('DELETE FROM attachments WHERE id = ?').run(row.id);
  publishRemoved(tx, row);
}

/** DELETE /attachments/{attachment_id}: only the owner's own uploads (api-notes GET /attachments). */
export function checkDeleteAttachment(realm: Realm, user: UserRow, id: number): AttachmentRow {
  const row = attachmentById(realm, id);
  if (!row || row.owner_id !== user.id) throw errors.invalidAttachment();
  return row;
}

export async function doDeleteAttachment(realm: Realm, user: UserRow, id: number): Promise<void> {
  checkDeleteAttachment(realm, user, id);
  await realm.transact((tx) => {
    const row = checkDeleteAttachment(tx.realm, user, id);
    deleteAttachmentTxn(tx, row);
  });
}

/** One batch of expired unclaimed uploads, deleted in one transaction; returns how many. */
export function doDeleteExpiredUploads(realm: Realm, nowMs: number, batchSize: number): Promise<number> {
  return realm.transact((tx) => {
    const rows = expiredUnclaimed(tx.realm, nowMs - tx.realm.fileSettings.unclaimedExpiryMs, batchSize);
    for (const row of rows) deleteAttachmentTxn(tx, row);
    return rows.length;
  });
}
