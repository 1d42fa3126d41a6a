import type { ResponseFrame } from '../../src/wire/protocol';
import { JsonBytes, JsonText } from './json-bytes';

/** A response frame with a JSON body (serialised here, so the front end only copies bytes). */
export function reply(id: number, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): ResponseFrame {
  // Every answer passes here: look for JsonBytes without building an entries list.
  for (const key in body) {
    if (body[key] instanceof JsonBytes) {
      // Bytes out, as a file is: the front end writes them without decoding a string.
      return {
        kind: 'response',
        id,
        status,
        headers,
        body: '',
        binary: { contentType: 'application/json', bytes: NO_BYTES, pieces: bodyPieces(body) },
      };
    }
  }
  return { kind: 'response', id, status, headers, body: jsonWithText(body) };
}

/** JSON.stringify of the body, JsonText values written as they are. */
function jsonWithText(body: Record<string, unknown>): string {
  let hasText = false;
  for (const key in body) if (body[key] instanceof JsonText) hasText = true;
  if (!hasText) return JSON.stringify(body);
  let text = '{';
  for (const key in body) {
    const value = body[key];
    if (value === undefined) continue;
    const json = value instanceof JsonText ? value.text : JSON.stringify(value);
    text += `${text === '{' ? '' : ','}${JSON.stringify(key)}:${json}`;
  }
  return `${text}}`;
}

const NO_BYTES = new Uint8Array(0);
const OPEN = Buffer.from('{');
const CLOSE = Buffer.from('}');

/**
 * JSON.stringify of the body's entries as UTF-8 pieces, JsonBytes values as they are; the
 * shard's thread entry copies them into the body ring without joining them first.
 */
function bodyPieces(body: Record<string, unknown>): Buffer[] {
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
  return pieces;
}
