import type { Realm } from '../realm';

/** A sign-in session of the web page (migration 15); times in milliseconds. */
export interface SessionRow {
  token_hash: string;
  user_id: number;
  csrf_token: string;
  created: number;
  last_seen: number;
}

export function sessionByTokenHash(realm: Realm, tokenHash: string): SessionRow | undefined {
  return realm
    .rows<SessionRow, [string]>('SELECT token_hash, user_id, csrf_token, created, last_seen FROM sessions WHERE token_hash = ?')
    .get(tokenHash);
}
