import { errors } from './errors';

/**
 * Decodes `to` (SPEC POST /messages): a stream name or ID, a JSON list of user IDs or emails,
 * or (legacy) comma-separated emails. Returned as a list of IDs and names/emails.
 */
export function decodeRecipients(raw: string): (number | string)[] {
  let decoded: unknown;
  try {
    decoded = JSON.parse(raw) as unknown;
  } catch {
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
