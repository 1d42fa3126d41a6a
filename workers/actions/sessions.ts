import { errors } from '../lib/errors';
import { generateSessionToken, secretsEqual, sessionTokenHash } from '../lib/secrets';
import { sessionByTokenHash, type SessionRow } from '../queries/sessions';
import { userById, type UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { checkFetchApiKey } from './users';

// Last-seen moves at most this often per session, so reading pages costs no write per request.
export const LAST_SEEN_REFRESH_MS = 60 * 60_000;

export interface NewSession {
  user: UserRow;
  /** The cookie's value; only its hash is stored. */
  token: string;
  csrfToken: string;
}

export interface SignedIn {
  user: UserRow;
  session: SessionRow;
  /** Last-seen moved in this request: the caller sets the cookies again. */
  refreshed: boolean;
}

/** POST /login: the password rules of POST /fetch_api_key, then a new session. */
export async function doLogin(realm: Realm, email: string, password: string): Promise<NewSession> {
  const user = await checkFetchApiKey(realm, email, password);
  const token = generateSessionToken();
  const csrfToken = generateSessionToken();
  await realm.transact((tx) => {
    const now = tx.realm.clock.now();
    // Sessions abandoned past their idle time go here, so the table does not keep them forever.
    tx.realm.stmt('DELETE FROM sessions WHERE last_seen < ?').run(now - tx.realm.sessionSettings.idleMs);
    tx.realm
      .stmt('INSERT INTO sessions (token_hash, user_id, csrf_token, created, last_seen) VALUES (?, ?, ?, ?, ?)')
      .run(sessionTokenHash(token), user.id, csrfToken, now, now);
  });
  return { user, token, csrfToken };
}

/**
 * The session a `sessionid` cookie names, and its user. A session idle longer than
 * SESSION_IDLE_MS is deleted and refused like a missing one.
 */
export async function authenticateSession(realm: Realm, token: string): Promise<SignedIn> {
  if (token === '') throw errors.sessionRequired();
  const tokenHash = sessionTokenHash(token);
  const session = sessionByTokenHash(realm, tokenHash);
  if (!session) throw errors.sessionRequired();
  const now = realm.clock.now();
  if (now - session.last_seen > realm.sessionSettings.idleMs) {
    await realm.transact((tx) => tx.realm.stmt('DELETE FROM sessions WHERE token_hash = ?').run(tokenHash));
    throw errors.sessionRequired();
  }
  const user = userById(realm, session.user_id);
  if (!user?.is_active) throw errors.sessionUserDeactivated();
  const refreshed = now - session.last_seen >= LAST_SEEN_REFRESH_MS;
  if (refreshed) {
    await realm.transact((tx) => tx.realm.stmt('UPDATE sessions SET last_seen = ? WHERE token_hash = ?').run(now, tokenHash));
    session.last_seen = now;
  }
  return { user, session, refreshed };
}

/** Writes through /json and POST /logout carry the session's CSRF token in X-CSRF-Token. */
export function checkCsrf(session: SessionRow, sent: string): void {
  if (sent === '') throw errors.csrfFailed('CSRF token missing.');
  if (!secretsEqual(sent, session.csrf_token)) throw errors.csrfFailed('CSRF token incorrect.');
}

/** POST /logout */
export async function doLogout(realm: Realm, session: SessionRow): Promise<void> {
  await realm.transact((tx) => tx.realm.stmt('DELETE FROM sessions WHERE token_hash = ?').run(session.token_hash));
}

/**
 * Ends a user's sessions but `keepTokenHash` (the one changing the password keeps its own),
 * inside the caller's transaction: deactivation and password changes.
 */
export function endSessionsTxn(tx: Txn, userId: number, keepTokenHash: string | null = null): void {
  tx.realm.stmt('DELETE FROM sessions WHERE user_id = ? AND token_hash != ?').run(userId, keepTokenHash ?? '');
}
