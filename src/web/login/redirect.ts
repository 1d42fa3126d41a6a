/**
 * Where the page goes after signing in: the `next` query parameter when it names a path on
 * this origin, else `/`. Anything else (another host, `//host`, a `javascript:` URL) would
 * let a link to the sign-in page send a person somewhere they did not mean to go.
 */
export function afterSignIn(search: string, origin: string): string {
  const next = new URLSearchParams(search).get('next');
  if (next === null || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  let target: URL;
  try {
    target = new URL(next, origin);
  } catch {
    return '/';
  }
  if (target.origin !== origin) return '/';
  // Back to the sign-in page would only show the form again.
  if (target.pathname === '/login') return '/';
  return target.pathname + target.search + target.hash;
}

/** The text shown for a refused sign-in: the server's own message, with the wait when limited. */
export function signInError(status: number, body: Record<string, unknown> | null): string {
  const msg = typeof body?.['msg'] === 'string' && body['msg'] !== '' ? body['msg'] : `Sign-in failed (HTTP ${status})`;
  const retryAfter = body?.['retry-after'];
  if (body?.['code'] === 'RATE_LIMIT_HIT' && typeof retryAfter === 'number') {
    const minutes = Math.ceil(retryAfter / 60);
    return `${msg}. Too many failed attempts: try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  }
  return msg;
}
