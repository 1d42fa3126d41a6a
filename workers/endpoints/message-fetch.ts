import { z } from 'zod';
import { checkFlagChange } from '../actions/flags';
import { doUpdateFlagsForNarrow } from '../actions/flags-narrow';
import { parseAnchor } from '../lib/anchor';
import { errors } from '../lib/errors';
import { MAX_NARROW_TERMS, parseNarrow } from '../lib/narrow';
import { json, param } from '../lib/params';
import { optionalUserRoute, userRoute } from '../lib/route';
import { matchesNarrow, selectRange } from '../queries/message-fetch';
import { fetchedMessagesJson } from '../queries/message-json';
import { resolveNarrow } from '../queries/narrow-resolve';
import { realmSettings } from '../queries/realm-settings';
import { resolveSpectatorNarrow } from '../queries/spectator-narrow';
import { serialized } from '../lib/contract';
import { fetchedMessageSchema, id } from '../schemas/objects';

// api-notes §c: `newest` past every message answers 10^16, above the safe-integer range zod's int() keeps to.
const anchorId = z.number().refine(Number.isInteger, 'an integer');

// api-notes §b: at most 5000 messages per fetch.
export const MAX_MESSAGES_PER_FETCH = 5000;

const count = () => json(param.safeInt.min(0));
const narrowParam = () => json(z.array(z.unknown()).max(MAX_NARROW_TERMS).default([]));

/**
 * GET /messages (api-notes §b, §c): a range of a narrow around an anchor. Without credentials,
 * a spectator's web-public narrow in a realm open to spectators (queries/spectator-narrow.ts).
 */
export const getMessages = optionalUserRoute(
  z.object({
    anchor: z.string().optional(),
    include_anchor: param.bool(true),
    num_before: count(),
    num_after: count(),
    narrow: narrowParam(),
    apply_markdown: param.bool(true),
    // Default true for users, false for spectators, who may not ask for it (openapi get-messages).
    client_extavatar: param.optionalBool(),
    use_first_unread_anchor: param.bool(false),
  }),
  z.strictObject({
    messages: serialized(z.array(fetchedMessageSchema)),
    anchor: anchorId,
    found_anchor: z.boolean(),
    found_oldest: z.boolean(),
    found_newest: z.boolean(),
    history_limited: z.boolean(),
  }),
  ({ realm, user }, p) => {
    const settings = realmSettings(realm);
    if (user === null) {
      if (!settings.enable_spectator_access) throw errors.notLoggedIn();
      if (p.client_extavatar === true) throw errors.invalidForAnonymous('client_extavatar');
    }
    if (p.num_before + p.num_after > MAX_MESSAGES_PER_FETCH) throw errors.tooManyMessages(MAX_MESSAGES_PER_FETCH);
    if (!p.include_anchor && p.num_before > 0 && p.num_after > 0) throw errors.anchorNotAtEnd();
    const anchor = parseAnchor(p.anchor, p.use_first_unread_anchor);
    const terms = parseNarrow(p.narrow);
    const narrow = user === null ? resolveSpectatorNarrow(realm, terms) : resolveNarrow(realm, user, terms);
    const range = selectRange(
      realm,
      narrow,
      // A `near` term is where the client wants to be (api-notes §c).
      { anchor: narrow.near ?? anchor, numBefore: p.num_before, numAfter: p.num_after, includeAnchor: p.include_anchor },
    );
    return {
      messages: fetchedMessagesJson(realm, narrow, range.rows, {
        applyMarkdown: p.apply_markdown,
        clientExtavatar: p.client_extavatar ?? user !== null,
        editHistory: settings.allow_edit_history,
      }),
      anchor: range.anchor,
      found_anchor: range.foundAnchor,
      found_oldest: range.foundOldest,
      found_newest: range.foundNewest,
      // No plan limits visible history here (api-notes §b).
      history_limited: false,
    };
  },
);

/** GET /messages/matches_narrow: which of `msg_ids` the viewer can read and match `narrow`. */
export const getMatchesNarrow = userRoute(
  z.object({ msg_ids: param.messageIds(), narrow: json(z.array(z.unknown()).max(MAX_NARROW_TERMS)) }),
  z.strictObject({ messages: z.record(z.string(), z.strictObject({ match_content: z.string(), match_subject: z.string() })) }),
  ({ realm, user }, p) => {
    const narrow = resolveNarrow(realm, user, parseNarrow(p.narrow));
    return { messages: matchesNarrow(realm, narrow, p.msg_ids) };
  },
);

/** POST /messages/flags/narrow (SPEC): add or remove a flag on a range of a narrow. */
export const postFlagsForNarrow = userRoute(
  z.object({
    anchor: z.string(),
    include_anchor: param.bool(true),
    num_before: count(),
    num_after: count(),
    narrow: narrowParam(),
    op: z.string(),
    flag: z.string(),
  }),
  z.strictObject({
    processed_count: z.number().int(),
    updated_count: z.number().int(),
    first_processed_id: id.nullable(),
    last_processed_id: id.nullable(),
    found_oldest: z.boolean(),
    found_newest: z.boolean(),
  }),
  async ({ realm, user }, p) => {
    const update = checkFlagChange(p.op, p.flag);
    const anchor = parseAnchor(p.anchor, false);
    const narrow = resolveNarrow(realm, user, parseNarrow(p.narrow));
    return doUpdateFlagsForNarrow(realm, user, narrow, update, {
      anchor,
      numBefore: p.num_before,
      numAfter: p.num_after,
      includeAnchor: p.include_anchor,
    });
  },
);
