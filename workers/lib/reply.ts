import type { ResponseFrame } from '../../src/wire/protocol';

/** A response frame with a JSON body (serialised here, so the front end only copies bytes). */
export function reply(id: number, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): ResponseFrame {
  return { kind: 'response', id, status, headers, body: JSON.stringify(body) };
}
