import { errors } from '../lib/errors';
import { isValidUrl } from '../lib/url-check';
import { FIELD_TYPE, RENDERED_TYPES, profileFieldById, type ProfileFieldRow } from '../queries/profile-fields';
import { activeUserIds, isAdmin, userById, type UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { renderDescription } from './render-message';

/** One entry of `data` (openapi update-profile-data): a field ID and its new value. */
export interface ProfileDataUpdate {
  id: number;
  value: string | number[];
}

// The public API's value limits: short strings (short text, external account, pronouns) and long text.
const MAX_SHORT_VALUE_LENGTH = 50;
const MAX_LONG_VALUE_LENGTH = 500;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function checkString(field: ProfileFieldRow, value: string | number[], max?: number): string {
  if (typeof value !== 'string') throw errors.badRequest(`${field.name} is not a string`);
  if (max !== undefined && value.length > max) throw errors.badRequest(`${field.name} is too long (limit: ${max} characters)`);
  return value;
}

function isCalendarDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** The person picker's users: existing, active humans. */
function checkUserIds(realm: Realm, value: string | number[]): number[] {
  if (!Array.isArray(value)) throw errors.badRequest('User IDs is not a list');
  for (const id of value) {
    const user = userById(realm, id);
    if (!user) throw errors.badRequest(`Invalid user ID: ${id}`);
    if (!user.is_active) throw errors.badRequest(`User with ID ${id} is deactivated`);
    if (user.is_bot) throw errors.badRequest(`User with ID ${id} is a bot`);
  }
  return value;
}

/** A value checked for its field's type, as stored (a person picker's list as JSON). */
function checkValue(realm: Realm, field: ProfileFieldRow, value: string | number[]): string {
  switch (field.type) {
    case FIELD_TYPE.LONG_TEXT:
      return checkString(field, value, MAX_LONG_VALUE_LENGTH);
    case FIELD_TYPE.CHOICE: {
      const choice = checkString(field, value);
      const choices = JSON.parse(field.field_data === '' ? '{}' : field.field_data) as Record<string, unknown>;
      if (!Object.hasOwn(choices, choice)) throw errors.badRequest(`'${choice}' is not a valid choice for '${field.name}'.`);
      return choice;
    }
    case FIELD_TYPE.DATE: {
      const date = checkString(field, value);
      if (!isCalendarDate(date)) throw errors.badRequest(`${field.name} is not a date`);
      return date;
    }
    case FIELD_TYPE.URL: {
      const url = checkString(field, value);
      if (!isValidUrl(url)) throw errors.badRequest(`${field.name} is not a URL`);
      return url;
    }
    case FIELD_TYPE.USER:
      return JSON.stringify(checkUserIds(realm, value));
    default:
      return checkString(field, value, MAX_SHORT_VALUE_LENGTH);
  }
}

function isEmpty(value: string | number[]): boolean {
  return value.length === 0;
}

function publishValue(tx: Txn, userId: number, fieldId: number, value: string | null, renderedValue: string | null): void {
  const field: { id: number; value: string | null; rendered_value?: string } = { id: fieldId, value };
  if (renderedValue !== null) field.rendered_value = renderedValue;
  tx.publish({ type: 'realm_user', op: 'update', person: { user_id: userId, custom_profile_field: field } }, activeUserIds(tx.realm));
}

export interface CheckedProfileData {
  targetUserId: number;
  values: { field: ProfileFieldRow; value: string | null; rendered: string | null }[];
}

/**
 * Validates custom profile field values for a user (PATCH /users/me/profile_data, PATCH
 * /users/{user_id}'s `profile_data`). Users change their own values, administrators anyone's;
 * bots have none. An empty value removes the field's value, as PATCH /users/{user_id} does in
 * the public API.
 */
export function checkProfileData(realm: Realm, actor: UserRow, targetUserId: number, data: ProfileDataUpdate[]): CheckedProfileData {
  if (actor.id === targetUserId && actor.is_bot === 1) throw errors.botRequestRefused();
  if (actor.id !== targetUserId && !isAdmin(actor)) throw errors.insufficientPermission();
  const target = userById(realm, targetUserId);
  if (!target || target.is_bot === 1) throw errors.noSuchUser();
  const values = data.map((item) => {
    const field = profileFieldById(realm, item.id);
    if (!field) throw errors.badRequest(`Field id ${item.id} not found.`);
    if (isEmpty(item.value)) return { field, value: null, rendered: null };
    const value = checkValue(realm, field, item.value);
    return { field, value, rendered: RENDERED_TYPES.has(field.type) ? renderDescription(realm, value) : null };
  });
  return { targetUserId, values };
}

/** Writes checked values: one `realm_user` update per changed field. */
export function writeProfileDataTxn(tx: Txn, checked: CheckedProfileData): void {
  const { targetUserId } = checked;
  const current = tx.realm.rows<{ value: string }, [number, number]>(
    'SELECT value FROM custom_profile_field_values WHERE user_id = ? AND field_id = ?',
  );
  for (const { field, value, rendered } of checked.values) {
    const before = current.get(targetUserId, field.id);
    if (value === null) {
      if (before === undefined) continue;
      tx.realm.stmt('DELETE FROM custom_profile_field_values WHERE user_id = ? AND field_id = ?').run(targetUserId, field.id);
    } else {
      if (before?.value === value) continue;
      tx.realm
        .stmt(
          `INSERT INTO custom_profile_field_values (user_id, field_id, value, rendered_value) VALUES (?, ?, ?, ?)
           ON CONFLICT (user_id, field_id) DO UPDATE SET value = excluded.value, rendered_value = excluded.rendered_value`,
        )
        .run(targetUserId, field.id, value, rendered);
    }
    publishValue(tx, targetUserId, field.id, value, rendered);
  }
}

/** PATCH /users/me/profile_data. */
export function doUpdateProfileData(realm: Realm, actor: UserRow, targetUserId: number, data: ProfileDataUpdate[]): Promise<void> {
  const checked = checkProfileData(realm, actor, targetUserId, data);
  return realm.transact((tx) => writeProfileDataTxn(tx, checked));
}

/** DELETE /users/me/profile_data: removes the user's values of these fields; unknown fields are refused. */
export function doRemoveProfileData(realm: Realm, actor: UserRow, fieldIds: number[]): Promise<void> {
  if (actor.is_bot === 1) throw errors.botRequestRefused();
  for (const id of fieldIds) if (!profileFieldById(realm, id)) throw errors.badRequest(`Field id ${id} not found.`);
  return realm.transact((tx) => {
    const remove = tx.realm.stmt('DELETE FROM custom_profile_field_values WHERE user_id = ? AND field_id = ?');
    for (const id of new Set(fieldIds)) {
      if (remove.run(actor.id, id).changes > 0) publishValue(tx, actor.id, id, null, null);
    }
  });
}
