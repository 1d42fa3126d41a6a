import { JsonBytes } from '../lib/json-bytes';
import type { Realm } from '../realm';
import { versionedCache } from './cache-version';
import { canSeeDeliveryEmail, userObject, type Viewer } from './people';
import type { ProfileData } from './profile-fields';
import { hasUploadedAvatar, type UserRow } from './users';

/*
 * register's `realm_users` is most of its answer (about 330 bytes a person) and every client
 * asks for it, all of them at once after a restart. Each person's object is serialised once
 * per variant a viewer can get (real email shown or not; picture URL or null for
 * client_extavatar) and kept until the users table changes (cache_version); only
 * `profile_data`, whose table is not versioned, is read and serialised per answer.
 */

interface PersonJson {
  row: UserRow;
  /** The object's JSON without `profile_data` and without its closing brace, by variant. */
  heads: Map<string, string>;
}

const activePeople = versionedCache((realm: Realm): PersonJson[] =>
  realm
    .rows<UserRow, []>('SELECT * FROM users WHERE is_active = 1 AND is_system_bot = 0 ORDER BY id')
    .all()
    .map((row) => ({ row, heads: new Map() })),
);

function headOf(realm: Realm, viewer: Viewer, person: PersonJson, clientExtavatar: boolean): string {
  const seesEmail = canSeeDeliveryEmail(viewer, person.row);
  // client_extavatar changes the object only where userObject may leave the URL out.
  const extavatarMatters = clientExtavatar && seesEmail && !hasUploadedAvatar(person.row);
  const variant = `${seesEmail ? 'e' : '-'}${extavatarMatters ? 'x' : '-'}`;
  let head = person.heads.get(variant);
  if (head === undefined) {
    const { is_active: _isActive, ...shown } = userObject(realm, viewer, person.row, { clientExtavatar, includeProfileData: false });
    head = JSON.stringify(shown).slice(0, -1);
    person.heads.set(variant, head);
  }
  return head;
}

/**
 * `realm_users` as `viewer` sees it: the realm's active people, without `is_active`, as JSON;
 * `profiles` is everyone's profile data, read once by the caller for all of register's lists.
 */
export function realmUsersJson(
  realm: Realm,
  viewer: Viewer,
  clientExtavatar: boolean,
  profiles: ReadonlyMap<number, ProfileData>,
): JsonBytes {
  const parts: string[] = [];
  for (const person of activePeople(realm)) {
    const head = headOf(realm, viewer, person, clientExtavatar);
    parts.push(person.row.is_bot === 1 ? `${head}}` : `${head},"profile_data":${JSON.stringify(profiles.get(person.row.id) ?? {})}}`);
  }
  return new JsonBytes([Buffer.from(`[${parts.join(',')}]`)]);
}
