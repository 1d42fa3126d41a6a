import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitSettings } from '../config';
import type { Logger } from '../log';
import type { ClientAddress } from './request-head';
import type { RequestSurface, ResponseFrame } from '../wire/protocol';
import { LONG_POLL_ROUTE_IDS } from '../wire/routes';
import { jsonError } from './write-response';

/**
 * Request budgets (api-notes §Limits, §f): 200 requests a window per user, 100 per address for
 * requests no proven credential names, failed sign-ins per address; 429 RATE_LIMIT_HIT beyond.
 *
 * They live here in the front end, not in the shards: every request crosses this thread before
 * it is queued for its shard, so a flood is refused before it costs the shard anything, and
 * one budget per user and per address holds across every realm and shard. The front end does
 * not authenticate (DESIGN §Front end), so it never trusts what a request claims: a credential
 * (the exact Authorization header, or the session cookie) is charged to its user only once the
 * shard has accepted it (ResponseFrame.authenticatedUserId). Until then, and for requests with
 * no credential, the request is charged to its address. A wrong password or a guessed key is
 * therefore a different credential: it spends the guesser's address budget, never the budget
 * of the account it names. A credential the shard later refuses (a regenerated key, a session
 * signed out) is forgotten at its first 401.
 *
 * GET /events has a budget of its own per user: the public server counts its long polls in
 * its real-time process, apart from the other API requests, so a busy event stream never
 * starves a client's other calls, nor the other way round.
 */

export interface LimitedRequest {
  realm: string;
  route: string;
  surface: RequestSurface;
  authorization: string;
  sessionCookie: string;
  client: ClientAddress;
}

export type Admission =
  /** `headers`: the X-RateLimit-* headers of the budget the request was charged to. */
  { admitted: true; headers: Record<string, string> } | { admitted: false; status: number; body: string; headers: Record<string, string> };

type RouteClass = 'login' | 'events' | 'files' | 'api';

// The sign-in routes: always charged to the address, and their 401s count as failed logins.
const LOGIN_ROUTES = new Set<string>(['POST /fetch_api_key', 'POST /~/login']);
const LONG_POLL_ROUTES = new Set<string>(LONG_POLL_ROUTE_IDS);

// At most this many credentials proven by a shard are remembered; past it the oldest is
// forgotten, and its next request is charged to its address until a shard proves it again.
const MAX_PROVEN_CREDENTIALS = 10_000;

const ADMITTED_UNLIMITED: Promise<Admission> = Promise.resolve({ admitted: true, headers: {} });

export class RateLimits {
  private readonly byUser: RateLimiterMemory;
  private readonly eventsByUser: RateLimiterMemory;
  private readonly byAddress: RateLimiterMemory;
  private readonly files: RateLimiterMemory;
  private readonly loginFailuresByAddress: RateLimiterMemory;
  /** credential key → the user the shard said it authenticates, `<realm>/<user id>` */
  private readonly provenCredentials = new Map<string, string>();

  constructor(
    private readonly settings: RateLimitSettings,
    private readonly log: Logger,
  ) {
    const duration = settings.windowMs / 1000;
    this.byUser = new RateLimiterMemory({ keyPrefix: 'user', points: settings.userPerWindow, duration });
    this.eventsByUser = new RateLimiterMemory({ keyPrefix: 'events', points: settings.userPerWindow, duration });
    this.byAddress = new RateLimiterMemory({ keyPrefix: 'address', points: settings.addressPerWindow, duration });
    this.files = new RateLimiterMemory({ keyPrefix: 'files', points: settings.filesPerWindow, duration });
    this.loginFailuresByAddress = new RateLimiterMemory({
      keyPrefix: 'login-failures',
      points: settings.loginFailuresPerAddress,
      duration: settings.loginFailureWindowMs / 1000,
    });
  }

  /** Charges the request to its budget; refused with 429 when that budget is spent. */
  admit(request: LimitedRequest): Promise<Admission> {
    if (!this.settings.enabled) return ADMITTED_UNLIMITED;
    return this.charge(request).catch((err: unknown) => {
      // A fault in the bookkeeping must not refuse service to everyone: serve, and say so.
      this.log.error({ err, route: request.route }, 'rate limit bookkeeping failed; request admitted');
      return { admitted: true, headers: {} };
    });
  }

  /**
   * Adds the budget's headers to the shard's answer and learns from it: which user a
   * credential proved to be, which credential stopped working, which sign-in failed.
   */
  answered(request: LimitedRequest, admission: Admission, response: ResponseFrame): void {
    if (!this.settings.enabled) return;
    Object.assign(response.headers, admission.headers);
    if (routeClass(request) === 'login') {
      if (response.status === 401) void this.loginFailuresByAddress.penalty(request.client.get());
      return;
    }
    const credential = credentialKey(request);
    if (credential === null) return;
    if (response.authenticatedUserId !== undefined) {
      this.remember(credential, `${request.realm}/${response.authenticatedUserId}`);
    } else if (response.status === 401) {
      this.provenCredentials.delete(credential);
    }
  }

  private async charge(request: LimitedRequest): Promise<Admission> {
    const kind = routeClass(request);
    if (kind === 'login') {
      const address = request.client.get();
      const failures = await this.loginFailuresByAddress.get(address);
      if (failures && failures.consumedPoints >= this.settings.loginFailuresPerAddress) {
        return refusal(this.settings.loginFailuresPerAddress, failures);
      }
      return consume(this.byAddress, address);
    }
    // Requests from a user already proven are charged to the user: the address is not read.
    const credential = credentialKey(request);
    const user = credential === null ? undefined : this.provenCredentials.get(credential);
    if (kind === 'files') return consume(this.files, user === undefined ? `address ${request.client.get()}` : `user ${user}`);
    if (user === undefined) return consume(this.byAddress, request.client.get());
    return consume(kind === 'events' ? this.eventsByUser : this.byUser, user);
  }

  private remember(credential: string, user: string): void {
    if (this.provenCredentials.get(credential) === user) return;
    this.provenCredentials.set(credential, user);
    if (this.provenCredentials.size <= MAX_PROVEN_CREDENTIALS) return;
    const oldest = this.provenCredentials.keys().next();
    if (!oldest.done) this.provenCredentials.delete(oldest.value);
  }
}

function routeClass(request: LimitedRequest): RouteClass {
  if (LOGIN_ROUTES.has(request.route)) return 'login';
  if (LONG_POLL_ROUTES.has(request.route)) return 'events';
  // Outside /api/v1 and /json the GET routes are files: avatars, uploads, emoji, thumbnails.
  if (request.surface === 'root' && request.route.startsWith('GET ')) return 'files';
  return 'api';
}

/**
 * The credential the shard will read for this request (workers/dispatch.ts authenticateFor):
 * the session cookie on /json, Basic auth on /api/v1, either at the root. Null when none.
 */
function credentialKey(request: LimitedRequest): string | null {
  const useCookie = request.surface === 'json' || (request.surface === 'root' && request.authorization === '');
  const credential = useCookie ? request.sessionCookie : request.authorization;
  if (credential === '') return null;
  return `${request.realm} ${useCookie ? 'cookie' : 'basic'} ${credential}`;
}

async function consume(limiter: RateLimiterMemory, key: string): Promise<Admission> {
  try {
    const spent = await limiter.consume(key);
    return { admitted: true, headers: budgetHeaders(limiter.points, spent) };
  } catch (refused) {
    if (refused instanceof RateLimiterRes) return refusal(limiter.points, refused);
    throw refused;
  }
}

/** api-notes §f and the reference RateLimitedError: seconds as a float in the body, whole in Retry-After. */
function refusal(limit: number, spent: RateLimiterRes): Admission {
  const retryAfterMs = Math.max(1, spent.msBeforeNext);
  return {
    admitted: false,
    status: 429,
    body: jsonError('API usage exceeded rate limit', { 'retry-after': retryAfterMs / 1000, code: 'RATE_LIMIT_HIT' }),
    headers: { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)), ...budgetHeaders(limit, spent) },
  };
}

/** api-notes §f: the budget's size, what is left of it, and when it is whole again (UNIX seconds). */
function budgetHeaders(limit: number, spent: RateLimiterRes): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(spent.remainingPoints),
    'X-RateLimit-Reset': String(Math.ceil((Date.now() + Math.max(0, spent.msBeforeNext)) / 1000)),
  };
}
