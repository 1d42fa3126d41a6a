import { z } from 'zod';
import { doAddReaction, doRemoveReaction } from '../actions/reactions';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { EMPTY } from '../schemas/objects';

/** POST /messages/{message_id}/reactions (api-notes §b); code and type are inferred from the name when absent. */
export const postReaction = userRoute(
  z.object({
    message_id: param.id(),
    emoji_name: z.string(),
    emoji_code: z.string().optional(),
    reaction_type: z.string().optional(),
  }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doAddReaction(realm, user, p.message_id, p.emoji_name, {
      emojiName: p.emoji_name,
      emojiCode: p.emoji_code,
      reactionType: p.reaction_type,
    });
    return {};
  },
);

/** DELETE /messages/{message_id}/reactions (SPEC): removes the caller's own vote. */
export const deleteReaction = userRoute(
  z.object({
    message_id: param.id(),
    emoji_name: z.string().optional(),
    emoji_code: z.string().optional(),
    reaction_type: z.string().optional(),
  }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doRemoveReaction(realm, user, p.message_id, {
      emojiName: p.emoji_name,
      emojiCode: p.emoji_code,
      reactionType: p.reaction_type,
    });
    return {};
  },
);
