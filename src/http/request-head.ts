import type uWS from 'uWebSockets.js';
import { SESSION_COOKIE_NAME } from '../wire/protocol';
import type { TrustedProxies } from './forwarded';
import { cookieValue } from './read-request';

export interface RequestHead {
  method: string;
  url: string;
  query: string;
  host: string;
  authorization: string;
  contentType: string;
  contentLength: number | null;
  hasBody: boolean;
  userAgent: string;
  /** Who sent the request, read from the socket only when asked. */
  client: ClientAddress;
  // File requests may ask for a byte range
  range: string;
  // The web page's session: its cookie, the CSRF header, and whether a proxy terminated TLS
  sessionCookie: string;
  csrfToken: string;
  secure: boolean;
}

const textDecoder = new TextDecoder();

/**
 * The client's address: the peer's own, or behind TRUSTED_PROXIES the nearest X-Forwarded-For
 * hop not one of them (forwarded.ts). Reading the peer is a system call (getpeername, 2.5–3.4 µs
 * here), and only sign-ins and requests not yet tied to a user need it (the rate limits), so it
 * is read on first use, while the request's callback or its response is still live.
 */
export class ClientAddress {
  private address: string | undefined;

  constructor(
    private readonly res: uWS.HttpResponse,
    private readonly forwardedFor: string,
    private readonly proxies: TrustedProxies,
  ) {}

  get(): string {
    return (this.address ??= this.proxies.clientAddress(peerOf(this.res), this.forwardedFor));
  }
}

function peerOf(res: uWS.HttpResponse): string {
  return textDecoder.decode(res.getRemoteAddressAsText());
}

/** What a request's handling reads of its head, read once: uWS's request object is valid only in its callback. */
export function readHead(res: uWS.HttpResponse, req: uWS.HttpRequest, proxies: TrustedProxies): RequestHead {
  const lengthHeader = req.getHeader('content-length');
  const contentLength = lengthHeader === '' ? null : Number(lengthHeader);
  const chunked = req.getHeader('transfer-encoding') !== '';
  const forwardedProto = req.getHeader('x-forwarded-proto');
  return {
    method: req.getMethod().toUpperCase(),
    url: req.getUrl(),
    query: req.getQuery() ?? '',
    host: req.getHeader('host'),
    authorization: req.getHeader('authorization'),
    contentType: req.getHeader('content-type'),
    contentLength: contentLength !== null && Number.isFinite(contentLength) ? contentLength : null,
    hasBody: chunked || (contentLength !== null && contentLength > 0),
    userAgent: req.getHeader('user-agent'),
    client: new ClientAddress(res, req.getHeader('x-forwarded-for'), proxies),
    range: req.getHeader('range'),
    sessionCookie: cookieValue(req.getHeader('cookie'), SESSION_COOKIE_NAME),
    csrfToken: req.getHeader('x-csrf-token'),
    // Only a TLS-terminating proxy in front of this plain-HTTP server may say so.
    secure: forwardedProto !== '' && proxies.isSecure(peerOf(res), forwardedProto),
  };
}
