import { STATUS_CODES } from 'node:http';
import type { HttpResponse } from 'uWebSockets.js';
import type { ResponseFrame } from '../wire/protocol';

const statusLines = new Map<number, string>();

function statusLine(status: number): string {
  let line = statusLines.get(status);
  if (!line) statusLines.set(status, (line = `${status} ${STATUS_CODES[status] ?? 'Unknown'}`));
  return line;
}

/** Writes a whole JSON response; callers outside a uWS callback must pass `cork = true`. */
export function writeJson(
  res: HttpResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
  closeConnection = false,
  cookies: readonly string[] = [],
): void {
  const write = (): void => {
    res.writeStatus(statusLine(status));
    res.writeHeader('Content-Type', 'application/json');
    writeHeaders(res, headers, cookies);
    res.end(body, closeConnection);
  };
  res.cork(write);
}

/** Writes a binary answer (file serving, redirects, ranges); always inside a cork. */
export function writeBinary(
  res: HttpResponse,
  status: number,
  contentType: string,
  bytes: Uint8Array,
  headers: Record<string, string>,
  cookies: readonly string[] = [],
): void {
  res.cork(() => {
    res.writeStatus(statusLine(status));
    if (contentType !== '') res.writeHeader('Content-Type', contentType);
    writeHeaders(res, headers, cookies);
    res.end(bytes);
  });
}

/** A HEAD answer: the status, headers and length a GET would have, without the body. */
export function writeBodyless(
  res: HttpResponse,
  status: number,
  contentType: string,
  length: number,
  headers: Record<string, string>,
  cookies: readonly string[] = [],
): void {
  // This uWS build counts endWithoutBody as no answer unless an abort handler is attached.
  res.onAborted(() => undefined);
  res.cork(() => {
    res.writeStatus(statusLine(status));
    if (contentType !== '') res.writeHeader('Content-Type', contentType);
    writeHeaders(res, headers, cookies);
    res.endWithoutBody(length);
  });
}

/** Writes a shard's answer: JSON or bytes, with its headers and cookies. */
export function writeFrame(res: HttpResponse, response: ResponseFrame): void {
  const cookies = response.cookies ?? [];
  if (response.binary) writeBinary(res, response.status, response.binary.contentType, response.binary.bytes, response.headers, cookies);
  else writeJson(res, response.status, response.body, response.headers, false, cookies);
}

/**
 * Sent with every answer unless the answer sets its own: no content sniffing (a JSON error must
 * never be read as HTML), and no full URL (which may carry a temporary file token) in Referer.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};
/** A shard's answer to a HEAD request: what writeFrame would send for GET, but the body. */
export function writeFrameHeaders(res: HttpResponse, response: ResponseFrame): void {
  const cookies = response.cookies ?? [];
  if (response.binary) {
    writeBodyless(res, response.status, response.binary.contentType, response.binary.bytes.byteLength, response.headers, cookies);
  } else {
    writeBodyless(res, response.status, 'application/json', Buffer.byteLength(response.body), response.headers, cookies);
  }
}

/** A JSON answer, or for HEAD only its headers. */
export function writeJsonOrHeaders(
  res: HttpResponse,
  headOnly: boolean,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  if (headOnly) writeBodyless(res, status, 'application/json', Buffer.byteLength(body), headers);
  else writeJson(res, status, body, headers);
}

function writeHeaders(res: HttpResponse, headers: Record<string, string>, cookies: readonly string[]): void {
  for (const name in SECURITY_HEADERS) if (!(name in headers)) res.writeHeader(name, SECURITY_HEADERS[name] as string);
  for (const name in headers) res.writeHeader(name, headers[name] as string);
  // One Set-Cookie header per cookie: browsers do not split a joined one.
  for (const cookie of cookies) res.writeHeader('Set-Cookie', cookie);
}

export function jsonError(msg: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ result: 'error', msg, ...extra });
}
