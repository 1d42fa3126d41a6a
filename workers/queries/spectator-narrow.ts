import { errors } from '../lib/errors';
import type { NarrowTerm } from '../lib/narrow';
import { ROLE } from '../lib/roles';
import type { Realm } from '../realm';
import { resolveNarrow } from './narrow-resolve';
import type { ResolvedNarrow } from './narrow-sql';
import { streamById, streamByName } from './streams';
import type { UserRow } from './users';

/*
 * GET /messages without credentials (api-notes §b; openapi get-messages): a spectator may read
 * web-public streams only, in a realm with `enable_spectator_access`, and only through a narrow
 * that says so (`streams:web-public` or a web-public `stream`). Anything else is the usual 401,
 * so a client whose credentials went missing is told so instead of getting an empty result.
 */

/** What a spectator's narrow may filter on: stream-level conditions, no per-user ones. */
const SPECTATOR_OPERATORS: ReadonlySet<NarrowTerm['operator']> = new Set([
  'stream',
  'streams',
  'topic',
  'sender',
  'has',
  'search',
  'near',
  'id',
]);

/**
 * The viewer a spectator's narrow is resolved for: no user has ID 0, so it received nothing and
 * every message reads as history, flags `read` and `historical` (api-notes §c: spectators see
 * everything as read).
 */
const SPECTATOR: UserRow = {
  id: 0,
  email: '',
  delivery_email: '',
  full_name: '',
  api_key: '',
  password_hash: null,
  role: ROLE.MEMBER,
  is_active: 0,
  is_bot: 0,
  bot_type: null,
  bot_owner_id: null,
  is_billing_admin: 0,
  timezone: '',
  date_joined: 0,
  avatar_version: 0,
  avatar_source: 'G',
  settings: '{}',
};

function isWebPublicTerm(realm: Realm, term: NarrowTerm): boolean {
  if (term.negated) return false;
  if (term.operator === 'streams') return term.operand === 'web-public';
  if (term.operator !== 'stream') return false;
  const stream = typeof term.operand === 'number' ? streamById(realm, term.operand) : streamByName(realm, term.operand);
  return stream?.is_web_public === 1;
}

/** A spectator's narrow, limited to web-public streams whatever else it names. */
export function resolveSpectatorNarrow(realm: Realm, terms: readonly NarrowTerm[]): ResolvedNarrow {
  if (!terms.every((term) => SPECTATOR_OPERATORS.has(term.operator))) throw errors.notLoggedIn();
  if (!terms.some((term) => isWebPublicTerm(realm, term))) throw errors.notLoggedIn();
  const narrow = resolveNarrow(realm, SPECTATOR, terms);
  // Other stream terms (a private stream beside `streams:web-public`) then match nothing.
  return { ...narrow, terms: [...narrow.terms, { kind: 'streams', webPublicOnly: true, negated: false }], includeHistory: true };
}
