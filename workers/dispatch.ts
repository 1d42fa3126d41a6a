import type { RequestFrame, ResponseFrame } from '../src/wire/protocol';
import { authenticate } from './actions/auth';
import { authenticateSession, checkCsrf } from './actions/sessions';
import { BinaryReply } from './lib/binary-reply';
import { checkRouteResult, ContractViolation } from './lib/contract';
import { ApiError, errors, SESSION_CHALLENGE } from './lib/errors';
import { parseParams } from './lib/params';
import { reply } from './lib/reply';
import { sessionCookies } from './lib/session-cookies';
import { shardStats } from './lib/shard-stats';
import type { Route, RouteContext } from './lib/route';
import type { SessionRow } from './queries/sessions';
import type { UserRow } from './queries/users';
import type { Realm } from './realm';
import { ROUTES } from './routes';

/**
 * One request in its realm: route lookup → authenticate → parse → handler → envelope. It sits
 * above the route table, so the realm (state: database, group commit, outbox, actors) needs
 * nothing from the layers that serve requests.
 */
export async function dispatch(realm: Realm, frame: RequestFrame): Promise<ResponseFrame> {
  const asked: { caller: Caller | null } = { caller: null };
  const response = await answer(realm, frame, asked);
  // Said even when the handler failed: the credential was good (src/http/rate-limit.ts).
  if (asked.caller) response.authenticatedUserId = asked.caller.user.id;
  return response;
}

/** The answer to `frame`; `asked.caller` is set once the credentials are accepted. */
async function answer(realm: Realm, frame: RequestFrame, asked: { caller: Caller | null }): Promise<ResponseFrame> {
  try {
    const route = ROUTES[frame.route as keyof typeof ROUTES];
    if (!route) return reply(frame.id, 404, { result: 'error', msg: 'Not found' });
    let caller: Caller | null = null;
    if (route.auth !== 'none') {
      if (realm.info.deactivated) throw errors.realmDeactivated();
      caller = await authenticateFor(realm, route, frame);
      asked.caller = caller;
    }
    const { values, ignored } = parseParams(route.params, route.aliases, frame.params, frame.pathParams);
    const ctx: RouteContext = { realm, user: caller?.user ?? null, session: caller?.session ?? null, frame, cookies: [] };
    const result = await route.run(ctx, values);
    if (realm.contractChecks) checkRouteResult(frame.route, route.result, result);
    // File serving answers with bytes or a redirect, not the JSON envelope.
    // An answered poll continues here, after the turn that woke it: its reply is timed apart.
    const response = shardStats.time(
      () => `${frame.route} reply`,
      () =>
        result instanceof BinaryReply
          ? result.toFrame(frame.id)
          : reply(frame.id, 200, {
              result: 'success',
              msg: '',
              ...result,
              ...(ignored.length > 0 ? { ignored_parameters_unsupported: ignored } : {}),
            }),
    );
    if (caller?.refreshed && caller.session) {
      ctx.cookies.push(...sessionCookies(frame.sessionCookie, caller.session.csrf_token, frame.secure, realm.sessionSettings.idleMs));
    }
    if (ctx.cookies.length > 0) response.cookies = ctx.cookies;
    return response;
  } catch (err) {
    if (err instanceof ApiError) return reply(frame.id, err.status, err.toBody(), responseHeaders(frame, err.headers));
    if (err instanceof ContractViolation) {
      // Tests only (CONTRACT_CHECKS): the message names what broke, so the failing test says it.
      realm.log.error({ realm: realm.name, route: frame.route, violation: err.message }, 'contract violation');
      return reply(frame.id, 500, { result: 'error', msg: err.message, code: 'CONTRACT_VIOLATION' });
    }
    realm.log.error({ err, realm: realm.name, route: frame.route }, 'unexpected error');
    return reply(frame.id, 500, { result: 'error', msg: 'Internal server error' });
  }
}

/** The authenticated user, and their session when the cookie (not Basic auth) said who. */
interface Caller {
  user: UserRow;
  session: SessionRow | null;
  /** The session's last-seen moved: its cookies are set again (their Max-Age restarts). */
  refreshed?: boolean;
}

/**
 * Who is asking, by the request's surface (issue 10 "Signing in"): /api/v1 reads only HTTP
 * Basic; /json reads only the session cookie and wants the CSRF token on every write; the
 * root's file routes take Basic when sent, else a valid cookie (an `<img>` sends only that).
 * Optional credentials (register, SPEC §Authentication 3) are checked when sent.
 */
async function authenticateFor(realm: Realm, route: Route, frame: RequestFrame): Promise<Caller | null> {
  if (frame.surface === 'json') {
    if (route.auth === 'optional' && frame.sessionCookie === '') return null;
    const signedIn = await authenticateSession(realm, frame.sessionCookie);
    if (!frame.route.startsWith('GET ')) checkCsrf(signedIn.session, frame.csrfToken);
    return signedIn;
  }
  if (frame.surface === 'root' && frame.authorization === '' && frame.sessionCookie !== '') {
    try {
      return await authenticateSession(realm, frame.sessionCookie);
    } catch (err) {
      // A stale cookie counts as none here: a spectator may still see what is public.
      if (route.auth === 'optional' && err instanceof ApiError) return null;
      throw err;
    }
  }
  if (route.auth === 'user' || frame.authorization !== '') return { user: authenticate(realm, frame.authorization), session: null };
  return null;
}

/**
 * A browser must not be asked for a Basic password: headless chromium closes the page on such
 * a prompt, and a person would see a dialog for an API key. So a 401 carries no Basic challenge
 * on /json, nor on /api/v1 to a browser that sent its session cookie and no credentials
 * (the public API names a session scheme instead). API clients still get the challenge.
 */
function responseHeaders(frame: RequestFrame, headers: Record<string, string>): Record<string, string> {
  if (!('WWW-Authenticate' in headers)) return headers;
  const browser = frame.surface === 'json' || (frame.sessionCookie !== '' && frame.authorization === '');
  return browser ? { ...headers, ...SESSION_CHALLENGE } : headers;
}
