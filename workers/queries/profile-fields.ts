import type { Realm } from '../realm';
import { versionedCache } from './cache-version';

/** Custom profile field types (SPEC Custom profile field). */
export const FIELD_TYPE = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  CHOICE: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

/** Types whose values are Markdown and carry a `rendered_value` (SPEC User.profile_data). */
export const RENDERED_TYPES: ReadonlySet<number> = new Set([FIELD_TYPE.SHORT_TEXT, FIELD_TYPE.LONG_TEXT]);

export interface ProfileFieldRow {
  id: number;
  type: number;
  name: string;
  hint: string;
  field_data: string;
  display_in_profile_summary: number;
  sort_order: number;
}

export interface ProfileFieldObject {
  id: number;
  type: number;
  name: string;
  hint: string;
  field_data: string;
  order: number;
  display_in_profile_summary?: boolean;
}

const FIELD_COLUMNS = 'id, type, name, hint, field_data, display_in_profile_summary, sort_order';

/** The field as register, GET /realm/profile_fields and the event show it; the summary flag only when set. */
export function profileFieldObject(row: ProfileFieldRow): ProfileFieldObject {
  const field: ProfileFieldObject = {
    id: row.id,
    type: row.type,
    name: row.name,
    hint: row.hint,
    field_data: row.field_data,
    order: row.sort_order,
  };
  if (row.display_in_profile_summary === 1) field.display_in_profile_summary = true;
  return field;
}

export function profileFieldRows(realm: Realm): ProfileFieldRow[] {
  return realm.rows<ProfileFieldRow, []>(`SELECT ${FIELD_COLUMNS} FROM custom_profile_fields ORDER BY sort_order, id`).all();
}

/** `custom_profile_fields` (register, its event, GET /realm/profile_fields), in display order. */
export function listProfileFields(realm: Realm): ProfileFieldObject[] {
  return profileFieldRows(realm).map(profileFieldObject);
}

export function profileFieldById(realm: Realm, id: number): ProfileFieldRow | undefined {
  return realm.rows<ProfileFieldRow, [number]>(`SELECT ${FIELD_COLUMNS} FROM custom_profile_fields WHERE id = ?`).get(id);
}

export type ProfileData = Record<string, { value: string; rendered_value?: string }>;

interface ValueRow {
  user_id: number;
  field_id: number;
  value: string;
  rendered_value: string | null;
}

function entry(row: ValueRow): { value: string; rendered_value?: string } {
  return row.rendered_value === null ? { value: row.value } : { value: row.value, rendered_value: row.rendered_value };
}

/** One user's `profile_data` (SPEC User): field ID → value, and the rendered value for Markdown types. */
export function profileDataOf(realm: Realm, userId: number): ProfileData {
  const rows = realm
    .rows<ValueRow, [number]>(
      'SELECT user_id, field_id, value, rendered_value FROM custom_profile_field_values WHERE user_id = ? ORDER BY field_id',
    )
    .all(userId);
  return Object.fromEntries(rows.map((row) => [String(row.field_id), entry(row)]));
}

/**
 * Every user's `profile_data`, for user lists (register's realm_users); users without values
 * are absent. Kept until the values change (their triggers move cache_version, migration 20):
 * a realm of 5,000 people with five fields would otherwise read 25,000 rows per register.
 */
export const profileDataByUser: (realm: Realm) => ReadonlyMap<number, Readonly<ProfileData>> = versionedCache((realm) => {
  const rows = realm
    .rows<ValueRow, []>('SELECT user_id, field_id, value, rendered_value FROM custom_profile_field_values ORDER BY user_id, field_id')
    .all();
  const byUser = new Map<number, ProfileData>();
  for (const row of rows) {
    let data = byUser.get(row.user_id);
    if (!data) byUser.set(row.user_id, (data = {}));
    data[String(row.field_id)] = entry(row);
  }
  return byUser;
});
