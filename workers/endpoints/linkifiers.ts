import { z } from 'zod';
import { doAddLinkifier, doRemoveLinkifier, doUpdateLinkifier } from '../actions/linkifiers';
import { param } from '../lib/params';
import { userRoute } from '../lib/route';
import { legacyFilters, listLinkifiers } from '../queries/linkifiers';
import { linkifierSchema } from '../events/realm-payloads';
import { EMPTY, id } from '../schemas/objects';

/** GET /realm/linkifiers. */
export const getLinkifiers = userRoute(z.object({}), z.strictObject({ linkifiers: z.array(linkifierSchema) }), ({ realm }) => ({
  linkifiers: listLinkifiers(realm),
}));

/** GET /realm/filters: the legacy list, for zulip-js `filters.retrieve`. */
export const getLegacyFilters = userRoute(
  z.object({}),
  z.strictObject({ filters: z.array(z.tuple([z.string(), z.string(), id])) }),
  ({ realm }) => ({ filters: legacyFilters(realm) }),
);

/** POST /realm/filters (administrators). */
export const postLinkifier = userRoute(
  z.object({ pattern: z.string(), url_template: z.string() }),
  z.strictObject({ id }),
  async ({ realm, user }, p) => ({
    id: await doAddLinkifier(realm, user, p.pattern, p.url_template),
  }),
);

/** PATCH /realm/filters/{filter_id} (administrators). */
export const patchLinkifier = userRoute(
  z.object({ filter_id: param.id(), pattern: z.string(), url_template: z.string() }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doUpdateLinkifier(realm, user, p.filter_id, p.pattern, p.url_template);
    return {};
  },
);

/** DELETE /realm/filters/{filter_id} (administrators). */
export const deleteLinkifier = userRoute(z.object({ filter_id: param.id() }), EMPTY, async ({ realm, user }, p) => {
  await doRemoveLinkifier(realm, user, p.filter_id);
  return {};
});
