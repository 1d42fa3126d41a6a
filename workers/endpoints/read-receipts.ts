import { z } from 'zod';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { readReceipts } from '../queries/read-receipts';
import { ids } from '../schemas/objects';

/** GET /messages/{message_id}/read_receipts (openapi get-read-receipts). */
export const getReadReceipts = userRoute(z.object({ message_id: param.id() }), z.strictObject({ user_ids: ids }), ({ realm, user }, p) => ({
  user_ids: readReceipts(realm, user, p.message_id),
}));
