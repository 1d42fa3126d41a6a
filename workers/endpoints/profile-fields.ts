import { z } from 'zod';
import { doRemoveProfileData, doUpdateProfileData } from '../actions/profile-data';
import { doCreateProfileField, doDeleteProfileField, doReorderProfileFields, doUpdateProfileField } from '../actions/profile-fields';
import { json, param } from '../lib/params';
import { userRoute } from '../lib/route';
import { listProfileFields } from '../queries/profile-fields';
import { profileFieldSchema } from '../events/realm-payloads';
import { EMPTY, id } from '../schemas/objects';

// openapi create-custom-profile-field: a dict of strings or of dicts of strings.
const fieldData = z.record(z.string(), z.union([z.string(), z.record(z.string(), z.string())]));

/** GET /realm/profile_fields (openapi get-custom-profile-fields). */
export const getProfileFields = userRoute(z.object({}), z.strictObject({ custom_fields: z.array(profileFieldSchema) }), ({ realm }) => ({
  custom_fields: listProfileFields(realm),
}));

/** POST /realm/profile_fields (openapi create-custom-profile-field; administrators). */
export const postProfileField = userRoute(
  z.object({
    name: z.string().default(''),
    hint: z.string().default(''),
    field_type: param.int(),
    field_data: json(fieldData.default({})),
    display_in_profile_summary: param.bool(false),
  }),
  z.strictObject({ id }),
  async ({ realm, user }, p) => ({
    id: await doCreateProfileField(realm, user, {
      name: p.name,
      hint: p.hint,
      type: p.field_type,
      fieldData: p.field_data,
      displayInProfileSummary: p.display_in_profile_summary,
    }),
  }),
);

/** PATCH /realm/profile_fields (openapi reorder-custom-profile-fields; administrators). */
export const patchProfileFieldOrder = userRoute(z.object({ order: param.intList() }), EMPTY, async ({ realm, user }, p) => {
  await doReorderProfileFields(realm, user, p.order);
  return {};
});

/** PATCH /realm/profile_fields/{field_id} (administrators). */
export const patchProfileField = userRoute(
  z.object({
    field_id: param.id(),
    name: z.string().optional(),
    hint: z.string().optional(),
    field_data: json(fieldData.optional()),
    display_in_profile_summary: param.optionalBool(),
  }),
  EMPTY,
  async ({ realm, user }, p) => {
    await doUpdateProfileField(realm, user, p.field_id, {
      name: p.name,
      hint: p.hint,
      fieldData: p.field_data,
      displayInProfileSummary: p.display_in_profile_summary,
    });
    return {};
  },
);

/** DELETE /realm/profile_fields/{field_id} (administrators). */
export const deleteProfileField = userRoute(z.object({ field_id: param.id() }), EMPTY, async ({ realm, user }, p) => {
  await doDeleteProfileField(realm, user, p.field_id);
  return {};
});

/** A list of custom profile field values: `[{id, value}]`, JSON-encoded. */
export const profileDataParam = json(z.array(z.strictObject({ id: param.safeInt, value: z.union([z.string(), z.array(param.safeInt)]) })));

/** PATCH /users/me/profile_data (openapi update-profile-data): `data` is a list of {id, value}. */
export const patchOwnProfileData = userRoute(z.object({ data: profileDataParam }), EMPTY, async ({ realm, user }, p) => {
  await doUpdateProfileData(realm, user, user.id, p.data);
  return {};
});

/** DELETE /users/me/profile_data: `data` is a list of field IDs. */
export const deleteOwnProfileData = userRoute(z.object({ data: param.intList() }), EMPTY, async ({ realm, user }, p) => {
  await doRemoveProfileData(realm, user, p.data);
  return {};
});
