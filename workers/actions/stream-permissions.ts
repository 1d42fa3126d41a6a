import { errors } from '../lib/errors';
import { passesRealmPolicy, streamPolicySettings } from '../queries/realm-settings';
import type { UserRow } from '../queries/users';
import type { Realm } from '../realm';

/**
 * The realm's stream-creation policies (api-notes §e create_*_stream_policy): a user creates a
 * private, public or web-public stream only when the matching policy admits their role.
 */
export function checkMayCreateStream(realm: Realm, actor: UserRow, kind: { inviteOnly: boolean; isWebPublic: boolean }): void {
  const settings = streamPolicySettings(realm);
  const policy = kind.isWebPublic
    ? settings.create_web_public_stream_policy
    : kind.inviteOnly
      ? settings.create_private_stream_policy
      : settings.create_public_stream_policy;
  if (!passesRealmPolicy(realm, actor, policy)) throw errors.badRequest('Insufficient permission');
}

/**
 * Web-public streams need the server switch and the realm's spectator access
 * (SPEC PATCH /streams/{stream_id}: "same preconditions as in subscribe").
 */
export function checkWebPublicEnabled(realm: Realm): void {
  if (!realm.webPublicStreamsEnabled || !streamPolicySettings(realm).enable_spectator_access) {
    throw errors.badRequest('Web-public streams are not enabled.');
  }
}

/** Subscribing other users follows the realm's invite_to_stream_policy. */
export function checkMaySubscribeOthers(realm: Realm, actor: UserRow): void {
  if (!passesRealmPolicy(realm, actor, streamPolicySettings(realm).invite_to_stream_policy))
    throw errors.badRequest('Insufficient permission');
}
