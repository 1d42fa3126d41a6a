import { z } from 'zod';

/** Events of the organization's settings that realm-payloads.ts does not declare (api-notes §d). */
export const realmUserSettingsDefaultsEvent = z.strictObject({
  type: z.literal('realm_user_settings_defaults'),
  op: z.literal('update'),
  property: z.string(),
  value: z.union([z.boolean(), z.number().int(), z.string()]),
});
