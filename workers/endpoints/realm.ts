import { z } from 'zod';
import { EXCLUDED_FROM_DEFAULTS, doUpdateRealmUserSettingsDefaults } from '../actions/realm-user-defaults';
import { BOOLEAN_REALM_SETTINGS, CHOICE_REALM_SETTINGS, doUpdateRealmSettings } from '../actions/realm-settings';
import { json, param } from '../lib/params';
import { userRoute } from '../lib/route';
import { TIME_LIMIT_DEFAULTS } from '../queries/realm-settings';
import { USER_SETTING_DEFAULTS } from '../queries/user-settings';
import { EMPTY } from '../schemas/objects';
import { updatedRealmSettingsSchema } from '../schemas/realm-settings';

/** An integer, or a word such as "unlimited", JSON-encoded or bare (clients send both). */
function decodeIntOrWord(value: unknown): unknown {
  if (typeof value !== 'string' || value === 'null') return value === 'null' ? undefined : value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

const intOrWord = z.preprocess(decodeIntOrWord, z.union([param.safeInt, z.string()]).optional());

const shape: Record<string, z.ZodType> = {
  name: z.string().optional(),
  description: z.string().optional(),
  default_language: z.string().optional(),
  default_code_block_language: z.string().optional(),
  waiting_period_threshold: param.optionalInt(),
  notifications_stream_id: param.optionalInt(),
  message_retention_days: intOrWord,
  signup_notifications_stream_id: param.optionalInt(),
};
for (const name of BOOLEAN_REALM_SETTINGS) shape[name] = param.optionalBool();
for (const name of Object.keys(CHOICE_REALM_SETTINGS)) shape[name] = param.optionalInt();
for (const name of Object.keys(TIME_LIMIT_DEFAULTS)) shape[name] = intOrWord;

const authenticationMethodsParam = json(z.record(z.string(), z.boolean()).optional());

/** PATCH /realm (org): the realm's settings; the response names the changed ones. */
export const patchRealm = userRoute(
  z.object({ ...shape, authentication_methods: authenticationMethodsParam }),
  updatedRealmSettingsSchema,
  async ({ realm, user }, p) => {
    const { authentication_methods: methods, ...settings } = p;
    return doUpdateRealmSettings(realm, user, settings, methods);
  },
);

const defaultsShape: Record<string, z.ZodType> = {};
for (const [name, fallback] of Object.entries(USER_SETTING_DEFAULTS)) {
  if (EXCLUDED_FROM_DEFAULTS.has(name)) continue;
  defaultsShape[name] =
    typeof fallback === 'boolean' ? param.optionalBool() : typeof fallback === 'number' ? param.optionalInt() : z.string().optional();
}

/** PATCH /realm/user_settings_defaults (org): what new users start with. */
export const patchRealmUserSettingsDefaults = userRoute(z.object(defaultsShape), EMPTY, async ({ realm, user }, p) => {
  await doUpdateRealmUserSettingsDefaults(realm, user, p);
  return {};
});
