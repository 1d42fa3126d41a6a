import { z } from 'zod';
import { doCreateDrafts, doDeleteDraft, doEditDraft } from '../actions/drafts';
import { json, param } from '../lib/params';
import { userRoute } from '../lib/route';
import { draftsOf } from '../queries/drafts';
import { draftObjectSchema } from '../events/realm-payloads';
import { EMPTY, ids } from '../schemas/objects';

// openapi components Draft: `id` belongs to the server; `timestamp` is optional seconds.
const draftSchema = z.strictObject({
  type: z.enum(['', 'stream', 'private']),
  to: z.array(param.safeInt),
  topic: z.string(),
  content: z.string(),
  timestamp: param.secondsTimestamp.optional(),
});

/** GET /drafts (openapi get-drafts). */
export const getDrafts = userRoute(
  z.object({}),
  z.strictObject({ count: z.number().int(), drafts: z.array(draftObjectSchema) }),
  ({ realm, user }) => {
    const drafts = draftsOf(realm, user.id);
    return { count: drafts.length, drafts };
  },
);

/** POST /drafts (openapi create-drafts): `ids` in the order sent. */
export const postDrafts = userRoute(
  z.object({ drafts: json(z.array(draftSchema)) }),
  z.strictObject({ ids }),
  async ({ realm, user }, p) => ({
    ids: await doCreateDrafts(realm, user, p.drafts),
  }),
);

/** PATCH /drafts/{draft_id} (openapi edit-draft). */
export const patchDraft = userRoute(z.object({ draft_id: param.id(), draft: json(draftSchema) }), EMPTY, async ({ realm, user }, p) => {
  await doEditDraft(realm, user, p.draft_id, p.draft);
  return {};
});

/** DELETE /drafts/{draft_id} (openapi delete-draft). */
export const deleteDraft = userRoute(z.object({ draft_id: param.id() }), EMPTY, async ({ realm, user }, p) => {
  await doDeleteDraft(realm, user, p.draft_id);
  return {};
});
