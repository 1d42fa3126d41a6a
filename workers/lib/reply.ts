import type { ResponseFrame } from '../../src/wire/protocol';
import { JsonText } from './json-text';

/** A response frame with a JSON body (serialised here, so the front end only copies bytes). */
export function reply(id: number, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): ResponseFrame {
  return { kind: 'response', id, status, headers, body: bodyJson(body) };
}

/** JSON.stringify, except that a top-level JsonText value is copied in as it is. */
function bodyJson(body: Record<string, unknown>): string {
  const entries = Object.entries(body);
  if (!entries.some(([, value]) => value instanceof JsonText)) return JSON.stringify(body);
  const members = entries
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${JSON.stringify(key)}:${value instanceof JsonText ? value.text : JSON.stringify(value)}`);
  return `{${members.join(',')}}`;
}
