import { z } from 'zod';

/* Success bodies of routes too large to declare beside their handler. */

const methodFlags = z.record(z.string(), z.boolean());

/** GET /server_settings (api-notes §b). */
export const serverSettingsSchema = z.strictObject({
  authentication_methods: methodFlags,
  external_authentication_methods: z.array(z.unknown()),
  service_feature_level: z.number().int(),
  service_version: z.string(),
  service_merge_base: z.string(),
  push_notifications_enabled: z.boolean(),
  is_incompatible: z.boolean(),
  email_auth_enabled: z.boolean(),
  require_email_format_usernames: z.boolean(),
  realm_uri: z.string(),
  realm_name: z.string(),
  realm_icon: z.string(),
  realm_description: z.string(),
  realm_web_public_access_enabled: z.boolean(),
});

/** GET, POST and DELETE /users/me/alert_words: the words after the change. */
export const alertWordsSchema = z.strictObject({ alert_words: z.array(z.string()) });
