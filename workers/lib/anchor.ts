import { errors } from './errors';

/** api-notes §b GET /messages: IDs are clamped into [0, 10^16]. */
const MAX_ANCHOR = 10_000_000_000_000_000;

export type AnchorParam = number | 'newest' | 'oldest' | 'first_unread';

/**
 * `anchor`: a message ID or `newest` / `oldest` / `first_unread`, also JSON-encoded (`"newest"`,
 * as clients that JSON-encode every parameter send it). Anything else is `Invalid anchor`.
 */
export function parseAnchor(raw: string | undefined, useFirstUnread: boolean): AnchorParam {
  if (raw === undefined) {
    // The deprecated use_first_unread_anchor stands in for the anchor (api-notes §b).
    if (useFirstUnread) return 'first_unread';
    throw errors.missingAnchor();
  }
  if (useFirstUnread) return 'first_unread';
  const value = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (value === 'newest' || value === 'oldest' || value === 'first_unread') return value;
  if (!/^-?[0-9]+$/.test(value)) throw errors.invalidAnchor();
  const id = Number(value);
  return Math.min(Math.max(id, 0), MAX_ANCHOR);
}
