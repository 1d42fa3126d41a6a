import type { ResponseFrame } from '../../src/wire/protocol';
import { JsonBytes } from './json-bytes';

/** A response frame with a JSON body (serialised here, so the front end only copies bytes). */
export function reply(id: number, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): ResponseFrame {
  const entries = Object.entries(body);
  if (!entries.some(([, value]) => value instanceof JsonBytes)) return { kind: 'response', id, status, headers, body: JSON.stringify(body) };
  // Bytes out, as a file is: the front end writes them without decoding a string.
  return { kind: 'response', id, status, headers, body: '', binary: { contentType: 'application/json', bytes: bodyBytes(entries) } };
}

const OPEN = Buffer.from('{');
const CLOSE = Buffer.from('}');

/** JSON.stringify of the body's entries, except that JsonBytes values are copied in as they are. */
function bodyBytes(entries: [string, unknown][]): Buffer {
  const pieces: Buffer[] = [OPEN];
  let separator = '';
  for (const [key, value] of entries) {
    if (value === undefined) continue;
    if (value instanceof JsonBytes) {
      pieces.push(Buffer.from(`${separator}${JSON.stringify(key)}:`), ...value.pieces);
    } else {
      pieces.push(Buffer.from(`${separator}${JSON.stringify(key)}:${JSON.stringify(value)}`));
    }
    separator = ',';
  }
  pieces.push(CLOSE);
  // Its own memory, not a slice of Buffer's shared pool: the bytes are transferred to the
  // front end, and transferring the pool would detach it under every other Buffer.
  const body = Buffer.allocUnsafeSlow(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) offset += piece.copy(body, offset);
  return body;
}
