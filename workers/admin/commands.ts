import type { AdminRequest, AdminResult } from '../../src/wire/admin';
import { ApiError } from '../lib/errors';
import type { Realm } from '../realm';
import { AdminError, type AdminHost } from './host';
import type { Progress } from './realm-files';
import { restoreRealm } from './restore';
import {
  changePassword,
  changeRole,
  createUser,
  deactivateUser,
  listUsers,
  reactivateUser,
  resetApiKey,
  setRealmDeactivated,
} from './users';

/** Runs one admin command where `host` keeps the realms; every failure becomes an AdminResult. */
export async function runAdminCommand(host: AdminHost, request: AdminRequest, progress?: Progress): Promise<AdminResult> {
  try {
    if (request.command === 'restore') return { ok: true, result: await restoreRealm(host, request.realm, request.args, progress) };
    const realm = host.realm(request.realm);
    if (!realm) throw new AdminError('no-such-realm', `no realm '${request.realm}' in ${host.dataDir}`);
    return { ok: true, result: await realmCommand(realm, request) };
  } catch (err) {
    if (err instanceof AdminError) return { ok: false, code: err.code, message: err.message };
    // The actions' refusals (the last owner, an email in use...) keep the API's wording.
    if (err instanceof ApiError) return { ok: false, code: 'refused', message: err.message };
    return { ok: false, code: 'failed', message: err instanceof Error ? err.message : String(err) };
  }
}

function realmCommand(realm: Realm, { command, args }: AdminRequest): Promise<Record<string, unknown>> | Record<string, unknown> {
  switch (command) {
    case 'create-user':
      return createUser(realm, args);
    case 'change-role':
      return changeRole(realm, args);
    case 'deactivate-user':
      return deactivateUser(realm, args);
    case 'reactivate-user':
      return reactivateUser(realm, args);
    case 'reset-api-key':
      return resetApiKey(realm, args);
    case 'change-password':
      return changePassword(realm, args);
    case 'list-users':
      return listUsers(realm);
    case 'deactivate-realm':
      return setRealmDeactivated(realm, true);
    case 'reactivate-realm':
      return setRealmDeactivated(realm, false);
    case 'restore':
      throw new AdminError('bad-argument', 'restore names no open realm');
  }
}
