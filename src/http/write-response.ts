import { STATUS_CODES } from 'node:http';
import type { HttpResponse } from 'uWebSockets.js';

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
): void {
  const write = (): void => {
    res.writeStatus(statusLine(status));
    res.writeHeader('Content-Type', 'application/json');
    for (const name in headers) res.writeHeader(name, headers[name] as string);
    res.end(body, closeConnection);
  };
  res.cork(write);
}

/** Writes a binary answer (file serving, redirects, ranges); always inside a cork. */
export function writeBinary(res: HttpResponse, status: number, contentType: string, bytes: Uint8Array, headers: Record<string, string>): void {
  res.cork(() => {
    res.writeStatus(statusLine(status));
    if (contentType !== '') res.writeHeader('Content-Type', contentType);
    for (const name in headers) res.writeHeader(name, headers[name] as string);
    res.end(bytes);
  });
}

export function jsonError(msg: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ result: 'error', msg, ...extra });
}
