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
import type { HandlerResult, Route, RouteContext } from './lib/route';
import type { SessionRow } from './queries/sessions';
import type { UserRow } from './queries/users';
import type { Realm } from './realm';
import { ROUTES } from './routes';

/**
 * One request in its realm: route lookup → authenticate → parse → handler → envelope. It sits
 * above the route table, so the realm (state: database, group commit, outbox, actors) needs
 * nothing from the layers that serve requests.
 *
 * A handler that answers later (a parked long poll, for up to a heartbeat interval) holds only
 * what its answer needs, not the request: thousands of polls wait at once, and whatever they
 * hold is copied by every young-generation collection while they wait.
 */
export function dispatch(realm: Realm, frame: RequestFrame): Promise<ResponseFrame> {
  const begun = begin(realm, frame);
  return begun instanceof Promise ? begun.then(answer) : answer(begun);
}

/** The answer once the handler's result is in; a result that is not a promise is answered now. */
function answer(begun: Begun | ResponseFrame): Promise<ResponseFrame> {
  if ('kind' in begun) return Promise.resolve(begun);
  const { result, ending } = begun;
  if (!(result instanceof Promise)) return Promise.resolve(finish(ending, result));
  return result.then(
    (value) => finish(ending, value),
    (err: unknown) => fail(ending.answering, err),
  );
}

/** Who an answer goes to, and what its error answers depend on. */
interface Answering {
  realm: Realm;
  id: number;
  routeId: string;
  /** No Basic challenge on a 401 (responseHeaders). */
  browser: boolean;
  /** Accepted credentials, said even when the handler failed (src/http/rate-limit.ts). */
  caller: Caller | null;
}

/** What the answer of a started handler needs of its request. */
interface Ending {
  answering: Answering;
  route: Route;
  ignored: readonly string[];
  /** Set-Cookie values the handler added (ctx.cookies), read once it is done. */
  cookies: string[];
  refreshCookies: readonly string[];
}

/** A handler that ran, or is running, and what its answer needs. */
interface Begun {
  result: HandlerResult | Promise<HandlerResult>;
  ending: Ending;
}

/**
 * Authenticates, parses and starts the handler; an answer when the request fails before it.
 * Synchronous unless the credentials are a session's: an API request (Basic auth) reaches its
 * handler in the turn it arrived, without the promises and frames an await would make.
 */
function begin(realm: Realm, frame: RequestFrame): Begun | ResponseFrame | Promise<Begun | ResponseFrame> {
  const answering: Answering = { realm, id: frame.id, routeId: frame.route, browser: browserRequest(frame), caller: null };
  try {
    const route = ROUTES[frame.route as keyof typeof ROUTES];
    if (!route) return reply(frame.id, 404, { result: 'error', msg: 'Not found' });
    if (route.auth === 'none') return start(answering, route, frame);
    if (realm.info.deactivated) throw errors.realmDeactivated();
    const caller = authenticateFor(realm, route, frame);
    if (!(caller instanceof Promise)) {
      answering.caller = caller;
      return start(answering, route, frame);
    }
    return caller.then(
      (known) => {
        answering.caller = known;
        return start(answering, route, frame);
      },
      (err: unknown) => fail(answering, err),
    );
  } catch (err) {
    return fail(answering, err);
  }
}

// Shared by every request whose session was not refreshed (a parked poll holds its Ending).
const NO_COOKIES: readonly string[] = Object.freeze([]);

/** Parses the parameters and starts the handler of an authenticated request. */
function start(answering: Answering, route: Route, frame: RequestFrame): Begun | ResponseFrame {
  const { realm, caller } = answering;
  try {
    const { values, ignored } = parseParams(route.params, route.aliases, frame.params, frame.pathParams);
    const ctx: RouteContext = { realm, user: caller?.user ?? null, session: caller?.session ?? null, frame, cookies: [] };
    const refreshCookies =
      caller?.refreshed && caller.session
        ? sessionCookies(frame.sessionCookie, caller.session.csrf_token, frame.secure, realm.sessionSettings.idleMs)
        : NO_COOKIES;
    const result = route.run(ctx, values);
    // Nested, not spread: copying `answering` with an object spread was the costliest line of
    // a poll (about 5 µs of its 17 in a CPU profile of GET /events with dont_block).
    return { result, ending: { answering, route, ignored, cookies: ctx.cookies, refreshCookies } };
  } catch (err) {
    return fail(answering, err);
  }
}

function finish(ending: Ending, result: HandlerResult): ResponseFrame {
  const { route, ignored } = ending;
  const { realm, id, routeId, caller } = ending.answering;
  try {
    if (realm.contractChecks) checkRouteResult(routeId, route.result, result);
    // File serving answers with bytes or a redirect, not the JSON envelope.
    // An answered poll continues here, after the turn that woke it: its reply is timed apart.
    const response = shardStats.time(
      () => `${routeId} reply`,
      () =>
        result instanceof BinaryReply
          ? result.toFrame(id)
          : reply(id, 200, {
              result: 'success',
              msg: '',
              ...result,
              ...(ignored.length > 0 ? { ignored_parameters_unsupported: ignored } : {}),
            }),
    );
    const cookies = [...ending.cookies, ...ending.refreshCookies];
    if (cookies.length > 0) response.cookies = cookies;
    if (caller) response.authenticatedUserId = caller.user.id;
    return response;
  } catch (err) {
    return fail(ending.answering, err);
  }
}

/** The error answer for a request that threw. */
function fail({ realm, id, routeId, browser, caller }: Answering, err: unknown): ResponseFrame {
  const response = errorReply(realm, id, routeId, browser, err);
  if (caller) response.authenticatedUserId = caller.user.id;
  return response;
}

function errorReply(realm: Realm, id: number, routeId: string, browser: boolean, err: unknown): ResponseFrame {
  if (err instanceof ApiError) return reply(id, err.status, err.toBody(), responseHeaders(browser, err.headers));
  if (err instanceof ContractViolation) {
    // Tests only (CONTRACT_CHECKS): the message names what broke, so the failing test says it.
    realm.log.error({ realm: realm.name, route: routeId, violation: err.message }, 'contract violation');
    return reply(id, 500, { result: 'error', msg: err.message, code: 'CONTRACT_VIOLATION' });
  }
  realm.log.error({ err, realm: realm.name, route: routeId }, 'unexpected error');
  return reply(id, 500, { result: 'error', msg: 'Internal server error' });
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
function authenticateFor(realm: Realm, route: Route, frame: RequestFrame): Caller | null | Promise<Caller | null> {
  if (frame.surface === 'json') {
    if (route.auth === 'optional' && frame.sessionCookie === '') return null;
    return signedInWithCsrf(realm, frame);
  }
  if (frame.surface === 'root' && frame.authorization === '' && frame.sessionCookie !== '') return cookieOrNone(realm, route, frame);
  if (route.auth === 'user' || frame.authorization !== '') return { user: authenticate(realm, frame.authorization), session: null };
  return null;
}

async function signedInWithCsrf(realm: Realm, frame: RequestFrame): Promise<Caller> {
  const signedIn = await authenticateSession(realm, frame.sessionCookie);
  if (!frame.route.startsWith('GET ')) checkCsrf(signedIn.session, frame.csrfToken);
  return signedIn;
}

async function cookieOrNone(realm: Realm, route: Route, frame: RequestFrame): Promise<Caller | null> {
  try {
    return await authenticateSession(realm, frame.sessionCookie);
  } catch (err) {
    // A stale cookie counts as none here: a spectator may still see what is public.
    if (route.auth === 'optional' && err instanceof ApiError) return null;
    throw err;
  }
}

/**
 * A browser must not be asked for a Basic password: headless chromium closes the page on such
 * a prompt, and a person would see a dialog for an API key. So a 401 carries no Basic challenge
 * on /json, nor on /api/v1 to a browser that sent its session cookie and no credentials
 * (the public API names a session scheme instead). API clients still get the challenge.
 */
function browserRequest(frame: RequestFrame): boolean {
  return frame.surface === 'json' || (frame.sessionCookie !== '' && frame.authorization === '');
}

function responseHeaders(browser: boolean, headers: Record<string, string>): Record<string, string> {
  if (!('WWW-Authenticate' in headers)) return headers;
  return browser ? { ...headers, ...SESSION_CHALLENGE } : headers;
}
