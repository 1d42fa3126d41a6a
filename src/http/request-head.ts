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
  clientIp: string;
  // File requests may ask for a byte range
  range: string;
  // The web page's session: its cookie, the CSRF header, and whether a proxy terminated TLS
  sessionCookie: string;
  csrfToken: string;
  secure: boolean;
}

const textDecoder = new TextDecoder();

/** What a request's handling reads of its head, read once: uWS's request object is valid only in its callback. */
export function readHead(res: uWS.HttpResponse, req: uWS.HttpRequest, proxies: TrustedProxies): RequestHead {
  const peer = textDecoder.decode(res.getRemoteAddressAsText());
  const lengthHeader = req.getHeader('content-length');
  const contentLength = lengthHeader === '' ? null : Number(lengthHeader);
  const chunked = req.getHeader('transfer-encoding') !== '';
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
    clientIp: proxies.clientAddress(peer, req.getHeader('x-forwarded-for')),
    range: req.getHeader('range'),
    sessionCookie: cookieValue(req.getHeader('cookie'), SESSION_COOKIE_NAME),
    csrfToken: req.getHeader('x-csrf-token'),
    // Only a TLS-terminating proxy in front of this plain-HTTP server may say so.
    secure: proxies.isSecure(peer, req.getHeader('x-forwarded-proto')),
  };
}
