import { errors } from '../lib/errors';
import { alertWordsOf } from '../queries/alert-words';
import type { UserRow } from '../queries/users';
import type { Realm } from '../realm';

export const MAX_ALERT_WORD_LENGTH = 100;

function checkWords(words: string[]): string[] {
  // The public text names the word by its place in the list the client sent (openapi add-alert-words).
  const tooLong = words.findIndex((w) => w.trim().length > MAX_ALERT_WORD_LENGTH);
  if (tooLong !== -1) throw errors.stringTooLong(`alert_words[${tooLong}]`, MAX_ALERT_WORD_LENGTH);
  return words.map((w) => w.trim()).filter((w) => w !== '');
}

/**
 * Applies `statementSql` (bound to the user and one word) to each word, then sends the user the
 * whole new list (api-notes §d) and returns it.
 */
function changeAlertWords(realm: Realm, user: UserRow, words: string[], statementSql: string): Promise<string[]> {
  const cleaned = checkWords(words);
  return realm.transact((tx) => {
    const statement = tx.realm.stmt(statementSql);
    for (const word of cleaned) statement.run(user.id, word);
    const list = alertWordsOf(realm, user.id);
    tx.publish({ type: 'alert_words', alert_words: list }, [user.id]);
    return list;
  });
}

/** POST /users/me/alert_words: adds the words not there yet, whatever their case. */
export function doAddAlertWords(realm: Realm, user: UserRow, words: string[]): Promise<string[]> {
  return changeAlertWords(realm, user, words, 'INSERT OR IGNORE INTO alert_words (user_id, word) VALUES (?, ?)');
}

/** DELETE /users/me/alert_words: removes the words, whatever their case. */
export function doRemoveAlertWords(realm: Realm, user: UserRow, words: string[]): Promise<string[]> {
  return changeAlertWords(realm, user, words, 'DELETE FROM alert_words WHERE user_id = ? AND word = ? COLLATE NOCASE');
}
