/**
 * The web page's two cookies (issue 10 "Signing in"): `sessionid`, which scripts cannot read,
 * and `csrftoken`, which the page reads and sends back as X-CSRF-Token on writes.
 */
import { CSRF_COOKIE_NAME, SESSION_COOKIE_NAME } from '../../src/wire/protocol';

interface CookieTarget {
  /** The request came over TLS: the cookies are then never sent over plain HTTP. */
  secure: boolean;
  /** Seconds the browser keeps them; 0 deletes them. */
  maxAgeSeconds: number;
}

/**
 * The cookies live as long as an idle session does (SESSION_IDLE_MS); the hourly last-seen
 * refresh sets them again, so a session in use keeps its cookies.
 */
export function sessionCookies(token: string, csrfToken: string, secure: boolean, idleMs: number): string[] {
  const target = { secure, maxAgeSeconds: Math.floor(idleMs / 1000) };
  return [cookie(SESSION_COOKIE_NAME, token, true, target), cookie(CSRF_COOKIE_NAME, csrfToken, false, target)];
}

export function clearedSessionCookies(secure: boolean): string[] {
  const target = { secure, maxAgeSeconds: 0 };
  return [cookie(SESSION_COOKIE_NAME, '', true, target), cookie(CSRF_COOKIE_NAME, '', false, target)];
}

function cookie(name: string, value: string, httpOnly: boolean, target: CookieTarget): string {
  const attributes = [`${name}=${value}`, 'Path=/'];
  if (httpOnly) attributes.push('HttpOnly');
  attributes.push('SameSite=Lax', `Max-Age=${target.maxAgeSeconds}`);
  if (target.secure) attributes.push('Secure');
  return attributes.join('; ');
}
