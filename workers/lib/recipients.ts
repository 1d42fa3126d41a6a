import { errors } from './errors';
import { distinct } from './params';

/** Most distinct recipients of one direct message (repeats are dropped first). */
export const MAX_RECIPIENTS = 1000;

/**
 * Decodes `to` (SPEC POST /messages): a stream name or ID, a JSON list of user IDs or emails,
 * or (legacy) comma-separated emails. Returned as a list of distinct IDs and names/emails, so
 * the per-recipient lookups that follow are bounded whatever the request repeats.
 */
export function decodeRecipients(raw: string): (number | string)[] {
  const recipients = distinct(decodeList(raw));
  if (recipients.length > MAX_RECIPIENTS) {
    throw errors.invalidArgument('to', `to has too many items (limit: ${MAX_RECIPIENTS})`);
  }
  return recipients;
}

function decodeList(raw: string): (number | string)[] {
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
