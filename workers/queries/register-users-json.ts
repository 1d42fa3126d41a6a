import { JsonBytes } from '../lib/json-bytes';
import type { Realm } from '../realm';
import { versionedCache } from './cache-version';
import { canSeeDeliveryEmail, userObject, type Viewer } from './people';
import { profileDataByUser } from './profile-fields';
import { hasUploadedAvatar, type UserRow } from './users';

/*
 * register's `realm_users` is most of its answer (about 330 bytes a person) and every client
 * asks for it, all of them at once after a restart. What a viewer gets depends only on their
 * role (whose real emails they see), on client_extavatar, and on their own entry (their own
 * email they always see). So the whole list is kept as bytes per role and client_extavatar,
 * with where each person's object lies in it, until cache_version moves (users and profile
 * values are versioned tables); a viewer whose own entry differs gets it spliced in.
 * Measured in a realm of 5,000 people: building the list per register was 9 of its 21 ms.
 */

interface PersonJson {
  row: UserRow;
  /** The object's JSON without `profile_data` and without its closing brace, by variant. */
  heads: Map<string, string>;
}

/** `realm_users` as a viewer of one role, other than each person themself, sees it. */
interface ListBytes {
  bytes: Buffer;
  /** Each person's object in `bytes`: [start, end) by user ID. */
  spans: Map<number, readonly [number, number]>;
}

const activePeople = versionedCache((realm: Realm): { all: PersonJson[]; byId: Map<number, PersonJson> } => {
  const all = realm
    .rows<UserRow, []>('SELECT * FROM users WHERE is_active = 1 AND is_system_bot = 0 ORDER BY id')
    .all()
    .map((row) => ({ row, heads: new Map<string, string>() }));
  return { all, byId: new Map(all.map((person) => [person.row.id, person])) };
});

// Filled per role and client_extavatar as viewers ask; emptied with every cache_version.
const listsByViewerClass = versionedCache((_realm: Realm) => new Map<string, ListBytes>());

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

function personJson(realm: Realm, viewer: Viewer, person: PersonJson, clientExtavatar: boolean): string {
  const head = headOf(realm, viewer, person, clientExtavatar);
  if (person.row.is_bot === 1) return `${head}}`;
  return `${head},"profile_data":${JSON.stringify(profileDataByUser(realm).get(person.row.id) ?? {})}}`;
}

function buildList(realm: Realm, role: number, clientExtavatar: boolean): ListBytes {
  // No one's own entry: user ID 0 is nobody's.
  const viewer = { id: 0, role };
  const parts: string[] = [];
  const spans = new Map<number, readonly [number, number]>();
  let offset = 1; // after '['
  for (const person of activePeople(realm).all) {
    const json = personJson(realm, viewer, person, clientExtavatar);
    if (parts.length > 0) offset += 1; // ','
    const length = Buffer.byteLength(json);
    spans.set(person.row.id, [offset, offset + length]);
    offset += length;
    parts.push(json);
  }
  return { bytes: Buffer.from(`[${parts.join(',')}]`), spans };
}

/** `realm_users` as `viewer` sees it: the realm's active people, without `is_active`, as JSON. */
export function realmUsersJson(realm: Realm, viewer: Viewer, clientExtavatar: boolean): JsonBytes {
  const lists = listsByViewerClass(realm);
  const key = `${viewer.role}:${clientExtavatar ? 'x' : '-'}`;
  let list = lists.get(key);
  if (!list) lists.set(key, (list = buildList(realm, viewer.role, clientExtavatar)));
  const span = list.spans.get(viewer.id);
  const self = activePeople(realm).byId.get(viewer.id);
  if (!span || !self) return new JsonBytes([list.bytes]);
  const own = Buffer.from(personJson(realm, viewer, self, clientExtavatar));
  const [start, end] = span;
  if (own.equals(list.bytes.subarray(start, end))) return new JsonBytes([list.bytes]);
  return new JsonBytes([list.bytes.subarray(0, start), own, list.bytes.subarray(end)]);
}
