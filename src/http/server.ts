import uWS from 'uWebSockets.js';
import type { Config } from '../config';
import type { Logger } from '../log';
import { RealmResolver } from '../realm/resolve';
import type { ShardPool } from '../realm/router';
import { busyResponse, type ResponseHandler } from '../realm/shard-thread';
import type { ServedRealms } from '../realm/placement';
import type { RequestFrame, RequestSurface, ResponseFrame } from '../wire/protocol';
import {
  API_ROUTE_IDS,
  LONG_POLL_ROUTE_IDS,
  ROOT_PATH_MARK,
  ROOT_ROUTE_IDS,
  RouteMatcher,
  TEST_ROUTE_IDS,
  type RouteId,
} from '../wire/routes';
import type { RequestMetrics } from '../metrics/metrics';
import { RateLimits, type Admission, type LimitedRequest } from './rate-limit';
import { healthAnswer } from './readiness';
import { TrustedProxies } from './forwarded';
import { placementRefusal } from './misdirected';
import { readParams } from './read-request';
import { readHead } from './request-head';
import { BodyBuffer } from './body-buffer';
import { RefusedBody } from './refused-body';
import { StaticSite } from './static';
import { jsonError, writeFrame, writeFrameHeaders, writeJson, writeJsonOrHeaders } from './write-response';

const API_PREFIX = '/api/v1';
// The web page's own surface: the same routes as /api/v1, authenticated by the session cookie.
const JSON_PREFIX = '/json';

/**
 * Test hooks only: when the front end wrote a poll's answer (epoch ms), so the capacity benchmark
 * (bench/mixed.ts) can tell the server's part of an event's delivery from its load generator's.
 */
const ANSWERED_AT_HEADER = 'X-Test-Answered-At';

function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

/** A request handed to a shard, as the front end keeps it until it is answered or abandoned. */
interface Exchange {
  readonly res: uWS.HttpResponse;
  readonly id: number;
  readonly started: bigint;
  readonly method: string;
  readonly path: string;
  readonly realm: string;
  readonly route: string;
  readonly headOnly: boolean;
  readonly longPoll: boolean;
  /** What the rate limits charge the answer to. */
  readonly limited: LimitedRequest;
  /** Answered, refused or abandoned: nothing more is written. */
  settled: boolean;
  /** The budget's verdict, once known; the request goes to its shard when both it and the body are in. */
  admitted: Admission | null;
  /** Set once a chunked body outgrows the limit: the rest is read and thrown away. */
  refusal: RefusedBody | null;
}

/** The uWS front end: realm resolution, route matching and body reading; no API semantics. */
export class FrontEnd {
  private readonly app = uWS.App();
  private listenSocket: uWS.us_listen_socket | null = null;
  private readonly resolver: RealmResolver;
  private readonly matcher: RouteMatcher;
  // Paths served outside /api/v1 (uploads, avatars, emoji images)
  private readonly rootMatcher = new RouteMatcher(ROOT_ROUTE_IDS);
  private openRequests = 0;
  // Parked polls are answered by the shards when they stop, so a stop does not wait for them.
  private openLongPolls = 0;
  private drainWaiter: { longPollsToo: boolean; resolve: () => void } | null = null;
  private readonly longPollRoutes = new Set<string>(LONG_POLL_ROUTE_IDS);
  // The web client: its pages and built files (src/http/static.ts)
  private readonly site: StaticSite;
  private readonly limits: RateLimits;
  private readonly proxies: TrustedProxies;
  // Set when a graceful stop begins: readiness answers 503 from then on.
  private stopping = false;

  constructor(
    private readonly config: Config,
    private readonly shards: ShardPool,
    private readonly log: Logger,
    private readonly served: ServedRealms,
    // Counted where each answer passes anyway; null without a metrics listener.
    private readonly metrics: RequestMetrics | null = null,
  ) {
    this.resolver = new RealmResolver(config.externalHost, config.port);
    const ids: RouteId[] = [...API_ROUTE_IDS];
    if (config.testHooks) ids.push(...TEST_ROUTE_IDS);
    this.matcher = new RouteMatcher(ids);
    this.site = new StaticSite(log);
    this.limits = new RateLimits(config.rateLimits, log);
    this.proxies = new TrustedProxies(config.trustedProxies);
    this.app.get('/health', (res, req) => this.health(res, req.getQuery('ready') === '1'));
    this.app.get('/ready', (res) => this.health(res, true));
    this.app.any('/*', (res, req) => this.onRequest(res, req));
  }

  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.app.listen(this.config.host, this.config.port, (socket) => {
        if (!socket) return reject(new Error(`cannot listen on ${this.config.host}:${this.config.port}`));
        this.listenSocket = socket;
        resolve(uWS.us_socket_local_port(socket));
      });
    });
  }

  /**
   * Stops accepting connections and resolves when every open request but the parked polls
   * has been answered; the shards answer those as they stop (then `drained()`).
   */
  stop(): Promise<void> {
    this.stopping = true;
    if (this.listenSocket) uWS.us_listen_socket_close(this.listenSocket);
    this.listenSocket = null;
    return this.waitForDrain(false);
  }

  /** Resolves when no request at all is open. */
  drained(): Promise<void> {
    return this.waitForDrain(true);
  }

  private waitForDrain(longPollsToo: boolean): Promise<void> {
    if (this.isDrained(longPollsToo)) return Promise.resolve();
    return new Promise((resolve) => (this.drainWaiter = { longPollsToo, resolve }));
  }

  private isDrained(longPollsToo: boolean): boolean {
    return this.openRequests - (longPollsToo ? 0 : this.openLongPolls) === 0;
  }

  private health(res: uWS.HttpResponse, readiness: boolean): void {
    let aborted = false;
    res.onAborted(() => (aborted = true));
    this.openRequests++;
    void healthAnswer(this.shards, readiness, this.stopping).then(({ status, body }) => {
      this.finished();
      if (!aborted) writeJson(res, status, body);
    });
  }

  private onRequest(res: uWS.HttpResponse, req: uWS.HttpRequest): void {
    const started = process.hrtime.bigint();
    const head = readHead(res, req, this.proxies);
    const logDone = (status: number, realm: string | null, route: string | null): void => {
      this.logAnswer(head.method, head.url, realm, route, status, Number(process.hrtime.bigint() - started) / 1e6);
    };

    // The web client's pages and files, answered from memory without a shard
    if (this.site.handles(head.method, head.url)) {
      const status = this.site.serve(res, req, {
        method: head.method,
        url: head.url,
        host: head.host,
        signedIn: head.sessionCookie !== '',
        realmExists: () => this.resolver.resolve(head.host) !== null,
      });
      return logDone(status, null, 'web');
    }
    // HEAD is GET without the body (RFC 9110 §9.3.2), as the public server serves it from a
    // path's GET view: files and avatars are checked this way before downloading.
    const headOnly = head.method === 'HEAD';
    const method = headOnly ? 'GET' : head.method;
    const surface: RequestSurface = head.url.startsWith(API_PREFIX + '/')
      ? 'api'
      : head.url.startsWith(JSON_PREFIX + '/')
        ? 'json'
        : 'root';
    if (surface === 'root' && !this.rootMatcher.hasPrefixFor(ROOT_PATH_MARK + head.url)) {
      writeJsonOrHeaders(res, headOnly, 404, jsonError('Not found'));
      return logDone(404, null, null);
    }
    const realm = this.resolver.resolve(head.host);
    if (realm === null) {
      // The public server's text for a host that maps to no organization (InvalidSubdomainError).
      writeJsonOrHeaders(res, headOnly, 404, jsonError('Invalid subdomain', { code: 'NONEXISTENT_SUBDOMAIN' }));
      return logDone(404, null, null);
    }
    const misplaced = placementRefusal(this.served.verdict(realm), realm);
    if (misplaced) {
      if (headOnly) writeJsonOrHeaders(res, true, misplaced.status, misplaced.body, misplaced.headers);
      else writeJson(res, misplaced.status, misplaced.body, misplaced.headers, head.hasBody);
      return logDone(misplaced.status, realm, null);
    }
    const matched =
      surface === 'root'
        ? this.rootMatcher.match(method, ROOT_PATH_MARK + head.url)
        : this.matcher.match(method, head.url.slice(surface === 'api' ? API_PREFIX.length : JSON_PREFIX.length));
    if (matched.kind === 'not_found') {
      writeJsonOrHeaders(res, headOnly, 404, jsonError('Not found'));
      return logDone(404, realm, null);
    }
    if (matched.kind === 'method_not_allowed') {
      const allowed = matched.allowedMethods;
      writeJsonOrHeaders(res, headOnly, 405, jsonError('Method Not Allowed', { allowed_methods: allowed }), { Allow: allowed.join(', ') });
      return logDone(405, realm, null);
    }
    const refuseBody = (): void => {
      writeJson(res, 413, this.tooLargeBody(), {}, true);
      logDone(413, realm, matched.match.route);
    };
    if (head.contentLength !== null && head.contentLength > this.config.maxBodyBytes) {
      if (!RefusedBody.lingersFor(head.contentLength)) return refuseBody();
      const refusal = new RefusedBody(refuseBody);
      res.onAborted(() => refusal.abort());
      res.onData((chunk, isLast) => refusal.discard(chunk.byteLength, isLast));
      return;
    }
    if (this.shards.isBusy(realm, matched.match.route)) {
      const busy = busyResponse(0);
      writeJson(res, busy.status, busy.body, busy.headers, head.hasBody);
      return logDone(busy.status, realm, matched.match.route);
    }
    const { authorization, sessionCookie, client } = head;
    const route = matched.match.route;
    const limited: LimitedRequest = { realm, route, surface, authorization, sessionCookie, client };
    const admission = this.limits.admit(limited);
    const exchange: Exchange = {
      res,
      id: this.shards.newRequestId(),
      started,
      method: head.method,
      path: head.url,
      realm,
      route,
      headOnly,
      longPoll: this.longPollRoutes.has(route),
      limited,
      settled: false,
      admitted: null,
      refusal: null,
    };
    this.openRequests++;
    if (exchange.longPoll) this.openLongPolls++;
    this.watchAbort(exchange);
    const send = (body: Buffer | null): void => {
      const { params, fileRanges } = readParams(head.query, head.contentType, body);
      const frame: RequestFrame = {
        kind: 'request',
        id: exchange.id,
        realm,
        route,
        pathParams: matched.match.pathParams,
        params,
        files: [],
        authorization: head.authorization,
        surface,
        sessionCookie: head.sessionCookie,
        csrfToken: head.csrfToken,
        secure: head.secure,
        userAgent: head.userAgent,
      };
      if (head.range !== '') frame.range = head.range;
      // A body holding files goes to the shard whole, transferred rather than copied.
      if (fileRanges.length > 0 && body) {
        frame.fileRanges = fileRanges;
        this.shards.send(frame, this.responder(exchange), body.buffer as ArrayBuffer);
      } else {
        this.shards.send(frame, this.responder(exchange));
      }
    };
    // A refused request is answered at once; a body still coming is not read (the connection closes).
    let bodyDone = !head.hasBody;
    let fullBody: Buffer | null = null;
    void admission.then((verdict) => {
      if (exchange.settled) return;
      if (!verdict.admitted) {
        this.settle(exchange);
        writeJson(res, verdict.status, verdict.body, verdict.headers, !bodyDone);
        return logDone(verdict.status, realm, route);
      }
      exchange.admitted = verdict;
      if (bodyDone) send(fullBody);
    });
    const dispatch = (body: Buffer | null): void => {
      bodyDone = true;
      fullBody = body;
      if (exchange.admitted) send(body);
    };
    if (!head.hasBody) return;

    // Memory follows the bytes received, not the Content-Length announced: a client that
    // announces a large upload and sends little holds little (see BodyBuffer).
    const body = new BodyBuffer(head.contentLength ?? this.config.maxBodyBytes);
    res.onData((chunk, isLast) => {
      if (exchange.refusal) return exchange.refusal.discard(chunk.byteLength, isLast);
      if (exchange.settled) return;
      if (!body.append(chunk)) {
        // The rest of an oversized body is never buffered, and the answer waits for its end.
        this.settle(exchange);
        exchange.refusal = new RefusedBody(refuseBody, body.received);
        exchange.refusal.discard(chunk.byteLength, isLast);
        return;
      }
      if (isLast) dispatch(body.bytes());
    });
  }

  /*
   * A request handed to a shard keeps only its Exchange: these closures are made outside
   * onRequest, whose scope (the request's head, its route match, the closures that read them)
   * every closure made in it would keep alive. A parked poll waits up to a heartbeat interval,
   * and what thousands of them hold is copied by each young-generation collection meanwhile.
   */

  private watchAbort(exchange: Exchange): void {
    exchange.res.onAborted(() => {
      exchange.refusal?.abort();
      if (this.settle(exchange)) this.shards.cancel(exchange.id);
    });
  }

  private responder(exchange: Exchange): ResponseHandler {
    return (response: ResponseFrame) => {
      if (!this.settle(exchange)) return;
      if (exchange.admitted) this.limits.answered(exchange.limited, exchange.admitted, response);
      if (exchange.longPoll && this.config.testHooks) response.headers[ANSWERED_AT_HEADER] = epochMs().toFixed(1);
      if (exchange.headOnly) writeFrameHeaders(exchange.res, response);
      else writeFrame(exchange.res, response);
      const ms = Number(process.hrtime.bigint() - exchange.started) / 1e6;
      this.logAnswer(exchange.method, exchange.path, exchange.realm, exchange.route, response.status, ms);
    };
  }

  /** Marks the exchange answered, once: by the answer, by a 413 mid-body, or by the client going away. */
  private settle(exchange: Exchange): boolean {
    if (exchange.settled) return false;
    exchange.settled = true;
    if (exchange.longPoll) this.openLongPolls--;
    this.finished();
    return true;
  }

  /** The request's log line (info, one per request) and its metrics. */
  private logAnswer(method: string, path: string, realm: string | null, route: string | null, status: number, ms: number): void {
    this.metrics?.answered(route, status, ms);
    this.log.info({ method, path, realm, route, status, ms: Math.round(ms * 100) / 100 }, 'request');
  }

  private tooLargeBody(): string {
    return jsonError(`Request body too large (limit: ${this.config.maxBodyBytes} bytes)`, { code: 'BAD_REQUEST' });
  }

  private finished(): void {
    this.openRequests--;
    const waiter = this.drainWaiter;
    if (waiter && this.isDrained(waiter.longPollsToo)) {
      this.drainWaiter = null;
      waiter.resolve();
    }
  }
}
