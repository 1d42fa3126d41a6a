import { linkifierPatternProblem, MAX_LINKIFIER_PATTERN_LENGTH } from '../markdown';
import { ApiError, errors } from '../lib/errors';
import { activeUserIds, isAdmin, type UserRow } from '../queries/users';
import { listLinkifiers } from '../queries/linkifiers';
import type { Realm, Txn } from '../realm';

const NAMED_GROUP = /\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/g;
const TEMPLATE_VARIABLE = /\{[+#./;?&]?([^}]*)\}/g;

/**
 * A pattern must run on the linear-time engine every render uses (no backreferences, no
 * lookaround, as with the public server's RE2) and every template variable must be one of its
 * named groups.
 */
export function checkLinkifier(pattern: string, urlTemplate: string): void {
  // A blank model field, in Django's words (the public server validates the model).
  if (pattern.trim() === '') throw errors.badRequest('This field cannot be blank.');
  switch (linkifierPatternProblem(pattern)) {
    case 'too_long':
      throw errors.badRequest(`Linkifier pattern is too long (limit: ${MAX_LINKIFIER_PATTERN_LENGTH} characters).`);
    case 'invalid':
      throw errors.badRequest('Invalid linkifier pattern.');
    case 'not_linear':
      throw errors.badRequest(
        'Linkifier pattern cannot be matched in linear time: backreferences, lookaround, case-insensitive flags and repetition counts above 16 are not supported.',
      );
    case null:
      break;
  }
  if (!/^https?:\/\//i.test(urlTemplate) && !urlTemplate.startsWith('/')) {
    throw errors.badRequest('Invalid URL template.');
  }
  const groups = new Set([...pattern.matchAll(NAMED_GROUP)].map((m) => m[1]));
  for (const match of urlTemplate.matchAll(TEMPLATE_VARIABLE)) {
    for (const variable of (match[1] ?? '').split(',')) {
      const name = variable.replace(/[*]$|:\d+$/, '');
      if (!groups.has(name)) throw errors.badRequest(`Group '${name}' in URL template is not present in linkifier pattern.`);
    }
  }
}

function checkAdmin(actor: UserRow): void {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
}

// api-notes §d: the whole list, to everyone, on every change.
function publishLinkifiers(tx: Txn): void {
  tx.publish({ type: 'realm_linkifiers', realm_linkifiers: listLinkifiers(tx.realm) }, activeUserIds(tx.realm));
}

export function doAddLinkifier(realm: Realm, actor: UserRow, pattern: string, urlTemplate: string): Promise<number> {
  checkAdmin(actor);
  checkLinkifier(pattern, urlTemplate);
  return realm.transact((tx) => {
    const id = Number(
      tx.realm.stmt('INSERT INTO linkifiers (pattern, url_template) VALUES (?, ?)').run(pattern, urlTemplate).lastInsertRowid,
    );
    publishLinkifiers(tx);
    return id;
  });
}

export function doUpdateLinkifier(realm: Realm, actor: UserRow, id: number, pattern: string, urlTemplate: string): Promise<void> {
  checkAdmin(actor);
  checkLinkifier(pattern, urlTemplate);
  return realm.transact((tx) => {
    const changed = tx.realm.stmt('UPDATE linkifiers SET pattern = ?, url_template = ? WHERE id = ?').run(pattern, urlTemplate, id).changes;
    if (changed === 0) throw new ApiError('Linkifier not found.');
    publishLinkifiers(tx);
  });
}

export function doRemoveLinkifier(realm: Realm, actor: UserRow, id: number): Promise<void> {
  checkAdmin(actor);
  return realm.transact((tx) => {
    if (tx.realm.stmt('DELETE FROM linkifiers WHERE id = ?').run(id).changes === 0) throw new ApiError('Linkifier not found.');
    publishLinkifiers(tx);
  });
}
