import { ApiError, errors } from '../lib/errors';
import { isValidUrl } from '../lib/url-check';
import { listPlaygrounds } from '../queries/playgrounds';
import { activeUserIds, isAdmin, type UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';

// api-notes §e numbers: playground language 40.
export const MAX_LEXER_LANGUAGE_LENGTH = 40;
// The characters a code block's language may have (the public API's rule for playgrounds).
const LEXER_LANGUAGE = /^[ a-zA-Z0-9_+\-./#]*$/;

function checkPlayground(name: string, lexerLanguage: string, urlPrefix: string): void {
  if (lexerLanguage.length > MAX_LEXER_LANGUAGE_LENGTH) {
    throw errors.invalidArgument('lexer_language', `lexer_language is too long (limit: ${MAX_LEXER_LANGUAGE_LENGTH} characters)`);
  }
  if (!LEXER_LANGUAGE.test(lexerLanguage)) throw errors.badRequest('Invalid characters in lexer language');
  if (!isValidUrl(urlPrefix)) throw errors.badRequest('url_prefix is not a URL');
  // A blank model field, in Django's words (the public server validates the model).
  if (name === '') throw errors.badRequest('This field cannot be blank.');
}

// SPEC Code playground: the whole list, to everyone, on every change.
function publishPlaygrounds(tx: Txn): void {
  tx.publish({ type: 'realm_playgrounds', realm_playgrounds: listPlaygrounds(tx.realm) }, activeUserIds(tx.realm));
}

/** POST /realm/playgrounds (SPEC; administrators). */
export function doAddPlayground(realm: Realm, actor: UserRow, name: string, lexerLanguage: string, urlPrefix: string): Promise<number> {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
  const values = { name: name.trim(), lexerLanguage: lexerLanguage.trim(), urlPrefix: urlPrefix.trim() };
  checkPlayground(values.name, values.lexerLanguage, values.urlPrefix);
  return realm.transact((tx) => {
    if (tx.realm.stmt('SELECT 1 FROM realm_playgrounds WHERE name = ? AND lexer_language = ?').get(values.name, values.lexerLanguage)) {
      throw errors.badRequest('Realm playground with this Realm, Lexer language and Name already exists.');
    }
    const id = Number(
      tx.realm
        .stmt('INSERT INTO realm_playgrounds (name, lexer_language, url_prefix) VALUES (?, ?, ?)')
        .run(values.name, values.lexerLanguage, values.urlPrefix).lastInsertRowid,
    );
    publishPlaygrounds(tx);
    return id;
  });
}

/** DELETE /realm/playgrounds/{playground_id} (administrators). */
export function doRemovePlayground(realm: Realm, actor: UserRow, id: number): Promise<void> {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
  return realm.transact((tx) => {
    if (tx.realm.stmt('DELETE FROM realm_playgrounds WHERE id = ?').run(id).changes === 0) throw new ApiError('Invalid playground');
    publishPlaygrounds(tx);
  });
}
