import type { ResponseFrame } from '../../src/wire/protocol';
import { JsonBytes } from './json-bytes';

/** A response frame with a JSON body (serialised here, so the front end only copies bytes). */
export function reply(id: number, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): ResponseFrame {
  // Every answer passes here: look for JsonBytes without building an entries list.
  for (const key in body) {
    if (body[key] instanceof JsonBytes) {
      // Bytes out, as a file is: the front end writes them without decoding a string.
      return { kind: 'response', id, status, headers, body: '', binary: { contentType: 'application/json', bytes: bodyBytes(body) } };
    }
  }
  return { kind: 'response', id, status, headers, body: JSON.stringify(body) };
}

const OPEN = Buffer.from('{');
const CLOSE = Buffer.from('}');

/** JSON.stringify of the body's entries, except that JsonBytes values are copied in as they are. */
function bodyBytes(body: Record<string, unknown>): Buffer {
  const pieces: Buffer[] = [OPEN];
  let separator = '';
  for (const [key, value] of Object.entries(body)) {
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
  const bytes = Buffer.allocUnsafeSlow(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) offset += piece.copy(bytes, offset);
  return bytes;
}
