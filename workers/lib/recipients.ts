import { errors } from './errors';

/**
 * Decodes `to` (SPEC POST /messages): a stream name or ID, a JSON list of user IDs or emails,
 * or (legacy) comma-separated emails. Returned as a list of IDs and names/emails.
 */
export function decodeRecipients(raw: string): (number | string)[] {
  const decoded = looksLikeJson(raw) ? tryParseJson(raw) : NOT_JSON;
  if (decoded === NOT_JSON) {
    return raw
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
  }
  const list = Array.isArray(decoded) ? (decoded as unknown[]) : [decoded];
  return list.map((item) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'number' && Number.isSafeInteger(item)) return item;
    throw errors.invalidArgument('to', 'Invalid data type for recipients');
  });
}

const NOT_JSON = Symbol('not JSON');

// Most `to` values are plain stream names: skip the (costly) failing JSON.parse for them.
function looksLikeJson(raw: string): boolean {
  const first = raw.trimStart()[0];
  return first === '[' || first === '"' || first === '-' || (first !== undefined && first >= '0' && first <= '9');
}

function tryParseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return NOT_JSON;
  }
}
