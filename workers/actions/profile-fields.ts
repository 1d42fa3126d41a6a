import { errors } from '../lib/errors';
import { isValidUrl } from '../lib/url-check';
import { FIELD_TYPE, listProfileFields, profileFieldById, type ProfileFieldRow } from '../queries/profile-fields';
import { activeUserIds, isAdmin, type UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';

// The public API's limits for a field's label and hint, and the profile summary.
export const MAX_FIELD_NAME_LENGTH = 40;
export const MAX_FIELD_HINT_LENGTH = 80;
const MAX_SUMMARY_FIELDS = 2;

/** Request `field_data`: choices (key → {text, order}) or an external account ({subtype, url_pattern?}). */
export type FieldData = Record<string, string | Record<string, string>>;

/** External accounts with a built-in label, hint and URL pattern (field_data `subtype`). */
const DEFAULT_EXTERNAL_ACCOUNTS: Readonly<Record<string, { name: string; hint: string }>> = {
  github: { name: 'GitHub', hint: 'Enter your GitHub username' },
  twitter: { name: 'Twitter', hint: 'Enter your Twitter username' },
};
const USERNAME_PLACEHOLDER = '%(username)s';

function checkAdmin(actor: UserRow): void {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
}

function checkRequiredString(value: unknown, name: string): string {
  if (typeof value !== 'string') throw errors.badRequest(`${name} is not a string`);
  if (value.trim() === '') throw errors.badRequest(`${name} cannot be blank.`);
  return value;
}

/** Choices of a "List of options" field: at least one, each {text, order} with nothing else, no two alike. */
function checkChoiceData(data: FieldData): void {
  const entries = Object.entries(data);
  if (entries.length === 0) throw errors.badRequest('Field must have at least one choice.');
  const texts = new Set<string>();
  for (const [key, choice] of entries) {
    if (key.trim() === '') throw errors.badRequest("'value' cannot be blank.");
    if (typeof choice !== 'object') throw errors.badRequest('field_data is not a dict');
    for (const required of ['text', 'order']) {
      if (!(required in choice)) throw errors.badRequest(`${required} key is missing from field_data`);
      checkRequiredString(choice[required], `field_data["${required}"]`);
    }
    const extra = Object.keys(choice).filter((k) => k !== 'text' && k !== 'order');
    if (extra.length > 0) throw errors.badRequest(`Unexpected arguments: ${extra.join(', ')}`);
    texts.add(choice['text'] as string);
  }
  if (texts.size !== entries.length) throw errors.badRequest('Field must not have duplicate choices.');
}

/** An external account: a known subtype, or `custom` with a URL pattern holding the username once. */
function checkExternalAccountData(data: FieldData): void {
  if (!('subtype' in data)) throw errors.badRequest('subtype key is missing from field_data');
  const subtype = checkRequiredString(data['subtype'], 'field_data["subtype"]');
  const extra = Object.keys(data).filter((k) => k !== 'subtype' && k !== 'url_pattern');
  if (extra.length > 0) throw errors.badRequest(`Unexpected arguments: ${extra.join(', ')}`);
  const pattern = data['url_pattern'];
  if (pattern !== undefined) {
    if (typeof pattern !== 'string') throw errors.badRequest('field_data["url_pattern"] is not a string');
    if (pattern.split(USERNAME_PLACEHOLDER).length !== 2) throw errors.badRequest(`URL pattern must contain '${USERNAME_PLACEHOLDER}'.`);
    if (!isValidUrl(pattern.replace(USERNAME_PLACEHOLDER, 'username'))) throw errors.badRequest('field_data["url_pattern"] is not a URL');
  }
  if (subtype in DEFAULT_EXTERNAL_ACCOUNTS) return;
  if (subtype !== 'custom') throw errors.badRequest('Invalid external account type');
  if (pattern === undefined) throw errors.badRequest('Custom external account must define URL pattern');
}

function isDefaultExternalAccount(type: number, data: FieldData): boolean {
  return type === FIELD_TYPE.EXTERNAL_ACCOUNT && typeof data['subtype'] === 'string' && data['subtype'] in DEFAULT_EXTERNAL_ACCOUNTS;
}

/** The public API's order of checks: field data, label and hint, type, profile summary. */
function checkField(name: string, hint: string, type: number, data: FieldData, displayInSummary: boolean): void {
  if (type === FIELD_TYPE.CHOICE) checkChoiceData(data);
  if (type === FIELD_TYPE.EXTERNAL_ACCOUNT) checkExternalAccountData(data);
  if (!isDefaultExternalAccount(type, data)) {
    if (name.trim() === '') throw errors.badRequest('Label cannot be blank.');
    if (hint.length > MAX_FIELD_HINT_LENGTH) throw errors.badRequest(`hint is too long (limit: ${MAX_FIELD_HINT_LENGTH} characters)`);
    if (name.length > MAX_FIELD_NAME_LENGTH) throw errors.badRequest(`name is too long (limit: ${MAX_FIELD_NAME_LENGTH} characters)`);
  }
  if (!(Object.values(FIELD_TYPE) as number[]).includes(type)) throw errors.badRequest('Invalid field type.');
  // Long text does not fit a summary; person pickers need client support there (openapi create-custom-profile-field).
  if (displayInSummary && (type === FIELD_TYPE.LONG_TEXT || type === FIELD_TYPE.USER)) {
    throw errors.badRequest('Field type not supported for display in profile summary.');
  }
}

function checkSummaryLimit(realm: Realm, exceptFieldId: number): void {
  const row = realm.oneRow<{ n: number }, [number]>(
    'SELECT count(*) AS n FROM custom_profile_fields WHERE display_in_profile_summary = 1 AND id != ?',
    exceptFieldId,
  );
  if (row.n >= MAX_SUMMARY_FIELDS) throw errors.badRequest('Only 2 custom profile fields can be displayed in the profile summary.');
}

function checkNameFree(tx: Txn, name: string, exceptFieldId: number): void {
  const taken = tx.realm.rows<{ id: number }, [string]>('SELECT id FROM custom_profile_fields WHERE name = ? COLLATE NOCASE').get(name);
  if (taken && taken.id !== exceptFieldId) throw errors.badRequest('A field with that label already exists.');
}

// api-notes §d custom_profile_fields: the whole list, to everyone.
function publishFields(tx: Txn): void {
  tx.publish({ type: 'custom_profile_fields', fields: listProfileFields(tx.realm) }, activeUserIds(tx.realm));
}

/** Stored field_data: JSON for choices and external accounts, empty for the other types. */
function storedFieldData(type: number, data: FieldData): string {
  return type === FIELD_TYPE.CHOICE || type === FIELD_TYPE.EXTERNAL_ACCOUNT ? JSON.stringify(data) : '';
}

export interface NewProfileField {
  name: string;
  hint: string;
  type: number;
  fieldData: FieldData;
  displayInProfileSummary: boolean;
}

/** POST /realm/profile_fields (administrators): a new field goes last. */
export function doCreateProfileField(realm: Realm, actor: UserRow, field: NewProfileField): Promise<number> {
  checkAdmin(actor);
  if (field.displayInProfileSummary) checkSummaryLimit(realm, 0);
  let name = field.name.trim();
  let hint = field.hint;
  checkField(name, hint, field.type, field.fieldData, field.displayInProfileSummary);
  if (isDefaultExternalAccount(field.type, field.fieldData)) {
    const preset = DEFAULT_EXTERNAL_ACCOUNTS[field.fieldData['subtype'] as string] as { name: string; hint: string };
    ({ name, hint } = preset);
  }
  return realm.transact((tx) => {
    checkNameFree(tx, name, 0);
    const next = tx.realm.oneRow<{ n: number }>('SELECT coalesce(max(sort_order), 0) + 1 AS n FROM custom_profile_fields');
    const id = Number(
      tx.realm
        .stmt(
          'INSERT INTO custom_profile_fields (type, name, hint, field_data, display_in_profile_summary, sort_order) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(field.type, name, hint, storedFieldData(field.type, field.fieldData), field.displayInProfileSummary ? 1 : 0, next.n)
        .lastInsertRowid,
    );
    publishFields(tx);
    return id;
  });
}

function accessField(realm: Realm, id: number): ProfileFieldRow {
  const field = profileFieldById(realm, id);
  if (!field) throw errors.badRequest(`Field id ${id} not found.`);
  return field;
}

function parseStoredData(field: ProfileFieldRow): FieldData {
  return field.field_data === '' ? {} : (JSON.parse(field.field_data) as FieldData);
}

export interface ProfileFieldChanges {
  name?: string | undefined;
  hint?: string | undefined;
  fieldData?: FieldData | undefined;
  displayInProfileSummary?: boolean | undefined;
}

/** PATCH /realm/profile_fields/{id} (administrators): values of removed choices go with them. */
export function doUpdateProfileField(realm: Realm, actor: UserRow, id: number, changes: ProfileFieldChanges): Promise<void> {
  checkAdmin(actor);
  const field = accessField(realm, id);
  if (changes.displayInProfileSummary === true) checkSummaryLimit(realm, id);
  const storedData = parseStoredData(field);
  const name = changes.name === undefined ? field.name : changes.name.trim();
  const hint = changes.hint ?? field.hint;
  const data = changes.fieldData ?? storedData;
  const displayInSummary = changes.displayInProfileSummary ?? field.display_in_profile_summary === 1;
  if (isDefaultExternalAccount(field.type, storedData)) {
    const onlySummary = name === field.name && hint === field.hint && JSON.stringify(data) === JSON.stringify(storedData);
    if (!onlySummary) throw errors.badRequest('Default custom field cannot be updated.');
  }
  checkField(name, hint, field.type, data, displayInSummary);
  return realm.transact((tx) => {
    checkNameFree(tx, name, id);
    tx.realm
      .stmt('UPDATE custom_profile_fields SET name = ?, hint = ?, field_data = ?, display_in_profile_summary = ? WHERE id = ?')
      .run(name, hint, storedFieldData(field.type, data), displayInSummary ? 1 : 0, id);
    if (field.type === FIELD_TYPE.CHOICE) {
      const removeValue = tx.realm.stmt('DELETE FROM custom_profile_field_values WHERE field_id = ? AND value = ?');
      for (const key of Object.keys(storedData)) if (!(key in data)) removeValue.run(id, key);
    }
    publishFields(tx);
  });
}

/** DELETE /realm/profile_fields/{id} (administrators): the users' values go too. */
export function doDeleteProfileField(realm: Realm, actor: UserRow, id: number): Promise<void> {
  checkAdmin(actor);
  accessField(realm, id);
  return realm.transact((tx) => {
    tx.realm.stmt('DELETE FROM custom_profile_field_values WHERE field_id = ?').run(id);
    tx.realm.stmt('DELETE FROM custom_profile_fields WHERE id = ?').run(id);
    publishFields(tx);
  });
}

/** PATCH /realm/profile_fields (administrators): `order` lists every field; each takes its position. */
export function doReorderProfileFields(realm: Realm, actor: UserRow, order: number[]): Promise<void> {
  checkAdmin(actor);
  return realm.transact((tx) => {
    const ids = tx.realm
      .rows<{ id: number }, []>('SELECT id FROM custom_profile_fields')
      .all()
      .map((r) => r.id);
    const position = new Map(order.map((id, index) => [id, index]));
    if (ids.some((id) => !position.has(id))) throw errors.badRequest('Invalid order mapping.');
    const setOrder = tx.realm.stmt('UPDATE custom_profile_fields SET sort_order = ? WHERE id = ?');
    for (const id of ids) setOrder.run(position.get(id), id);
    publishFields(tx);
  });
}
