import { z } from 'zod';
import { checkFetchApiKey } from '../actions/users';
import { openRoute } from '../lib/route';
import { id } from '../schemas/objects';
import { SERVICE_FEATURE_LEVEL, SERVICE_MERGE_BASE, SERVICE_VERSION } from '../lib/version';
import { authenticationMethods, realmColumns, spectatorAccessEnabled } from '../queries/realm-settings';
import { avatarUrl, userById } from '../queries/users';
import { serverSettingsSchema } from '../schemas/results';

/** GET /server_settings (api-notes §b): public facts a client needs before logging in. */
export const getServerSettings = openRoute(z.object({}), serverSettingsSchema, ({ realm }) => {
  const owner = userById(realm, 1);
  // Read now, not from the row cached at open, so PATCH /realm shows at once.
  const columns = realmColumns(realm);
  const methods = authenticationMethods(realm);
  const passwordEnabled = methods['Email'] === true || methods['LDAP'] === true;
  return {
    authentication_methods: {
      password: passwordEnabled,
      dev: methods['Dev'] === true,
      email: methods['Email'] === true,
      ldap: methods['LDAP'] === true,
      remoteuser: false,
      github: false,
      azuread: false,
      gitlab: false,
      apple: false,
      google: false,
      saml: false,
      'openid connect': false,
    },
    external_authentication_methods: [],
    service_feature_level: SERVICE_FEATURE_LEVEL,
    service_version: SERVICE_VERSION,
    service_merge_base: SERVICE_MERGE_BASE,
    push_notifications_enabled: false,
    is_incompatible: false,
    email_auth_enabled: methods['Email'] === true,
    require_email_format_usernames: true,
    realm_uri: realm.url,
    realm_name: columns.name,
    realm_icon: owner ? avatarUrl(owner) : '',
    realm_description: columns.description,
    realm_web_public_access_enabled: realm.webPublicStreamsEnabled && spectatorAccessEnabled(realm),
  };
});

/** POST /fetch_api_key (api-notes §b): `username` is the email. */
export const postFetchApiKey = openRoute(
  z.object({ username: z.string(), password: z.string() }),
  z.strictObject({ api_key: z.string(), email: z.string(), user_id: id }),
  async ({ realm }, { username, password }) => {
    const user = await checkFetchApiKey(realm, username, password);
    return { api_key: user.api_key, email: user.delivery_email, user_id: user.id };
  },
);
