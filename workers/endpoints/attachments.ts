/**
 * Uploads and attachments (api-notes POST /user_uploads, GET /attachments; SPEC
 * DELETE /attachments/{attachment_id}; openapi upload-file, get-file-temporary-url).
 */
import { z } from 'zod';
import { checkSingleFile, doDeleteAttachment, doUpload } from '../actions/attachments';
import { BinaryReply } from '../lib/binary-reply';
import { errors } from '../lib/errors';
import { fileReply } from '../lib/file-response';
import { param } from '../lib/params';
import { BYTES, openRoute, optionalUserRoute, userRoute } from '../lib/route';
import { issueToken, verifyToken } from '../lib/temporary-token';
import {
  attachmentById,
  attachmentByPath,
  attachmentObject,
  canReadAttachment,
  ownAttachments,
  readAttachmentBytes,
  uploadSpaceUsed,
  type AttachmentRow,
} from '../queries/attachments';
import type { UserRow } from '../queries/users';
import type { Realm } from '../realm';
import { attachmentObjectSchema } from '../events/realm-payloads';
import { EMPTY } from '../schemas/objects';

const uploadPath = z.object({ realm_id: z.string(), dir: z.string(), random: z.string(), filename: z.string() });

/** POST /user_uploads: one file in any field (the Python client names the field after the file). */
export const postUpload = userRoute(z.object({}), z.strictObject({ uri: z.string(), url: z.string() }), async ({ realm, user, frame }) => {
  const file = checkSingleFile(frame.files, realm.fileSettings.maxUploadMib);
  const uri = await doUpload(realm, user, file);
  // `uri` as 7.0 names it; `url` as later feature levels add it.
  return { uri, url: uri };
});

function readableUpload(realm: Realm, user: UserRow | null, p: z.output<typeof uploadPath>): AttachmentRow {
  const row = attachmentByPath(realm, `${p.realm_id}/${p.dir}/${p.random}/${p.filename}`);
  // Unknown, deleted and unreadable look alike: the answer never says a file exists.
  if (!row || !canReadAttachment(realm, user, row)) throw errors.fileNotFound();
  return row;
}

function serveAttachment(realm: Realm, row: AttachmentRow, range: string | undefined): BinaryReply {
  return fileReply(
    { name: row.name, contentType: row.content_type, size: row.size, read: (start, end) => readAttachmentBytes(realm, row.id, start, end) },
    range,
  );
}

/** GET /user_uploads/{path_id} (root): the file, to whoever may read it; spectators through web-public streams. */
export const getUploadedFile = optionalUserRoute(uploadPath, BYTES, ({ realm, user, frame }, p) =>
  serveAttachment(realm, readableUpload(realm, user, p), frame.range),
);

/** GET /api/v1/user_uploads/{path_id}: a URL that serves the file without credentials for a short time. */
export const getTemporaryUploadUrl = userRoute(uploadPath, z.strictObject({ url: z.string() }), ({ realm, user }, p) => {
  const row = readableUpload(realm, user, p);
  const token = issueToken(String(row.id), realm.clock.now() + realm.fileSettings.temporaryUrlMs);
  return { url: `/user_uploads/temporary/${token}/${encodeURIComponent(row.name)}` };
});

/** GET /user_uploads/temporary/{token}/{filename} (root): the token is the credential. */
export const getTemporaryUpload = openRoute(z.object({ token: z.string(), filename: z.string() }), BYTES, ({ realm, frame }, p) => {
  const subject = verifyToken(p.token, realm.clock.now());
  const row = subject === null ? undefined : attachmentById(realm, Number(subject));
  if (!row || row.name !== p.filename) throw errors.fileNotFound();
  return serveAttachment(realm, row, frame.range);
});

/**
 * GET /thumbnail?url=user_uploads/...: the renderer's image previews of uploads name the file
 * without its leading slash (workers/markdown/url.ts). No resizing: a redirect to the file,
 * whose own access rules then apply. Other URLs are not fetched for anyone.
 */
export const getThumbnail = openRoute(z.object({ url: z.string(), size: z.string().optional() }), BYTES, (_ctx, p) => {
  const target = `/${p.url.replace(/^\/+/, '')}`;
  if (!target.startsWith('/user_uploads/')) throw errors.fileNotFound();
  return BinaryReply.redirect(target);
});

/** GET /attachments: the caller's uploads and the realm's space used. */
export const getAttachments = userRoute(
  z.object({}),
  z.strictObject({ attachments: z.array(attachmentObjectSchema), upload_space_used: z.number().int() }),
  ({ realm, user }) => ({
    attachments: ownAttachments(realm, user.id).map((row) => attachmentObject(realm, row)),
    upload_space_used: uploadSpaceUsed(realm),
  }),
);

/** DELETE /attachments/{attachment_id} (SPEC). */
export const deleteAttachment = userRoute(z.object({ attachment_id: param.id() }), EMPTY, async ({ realm, user }, p) => {
  await doDeleteAttachment(realm, user, p.attachment_id);
  return {};
});
