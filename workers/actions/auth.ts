import { errors } from '../lib/errors';
import { secretsEqual } from '../lib/secrets';
import { versionedCache } from '../queries/cache-version';
import { userByDeliveryEmail, userByEmail, type UserRow } from '../queries/users';
import type { Realm } from '../realm';

/**
 * HTTP Basic authentication (SPEC §Authentication 1): user = API email, password = API key.
 * Users are looked up in this realm's own file, so a key from realm A can never work in B.
 */
export function authenticate(realm: Realm, header: string): UserRow {
  const verified = verifiedHeaders(realm).get(header);
  if (verified) return verified;
  if (header === '') throw errors.notLoggedIn();
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space).toLowerCase() !== 'basic') throw errors.invalidAuthHeader();
  const token = header.slice(space + 1).trim();
  const credentials = Buffer.from(token, 'base64');
  const decoded = credentials.toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw errors.invalidAuthHeader();
  const email = decoded.slice(0, colon);
  const apiKey = decoded.slice(colon + 1);
  const user = cachedUserByEmail(realm, email);
  // Compare against a dummy when the email is unknown, so timing does not reveal accounts.
  const keyMatches = secretsEqual(apiKey, user?.api_key ?? DUMMY_KEY);
  if (!user || !keyMatches) throw errors.invalidApiKey();
  if (!user.is_active) throw errors.userDeactivated();
  // Only the one canonical spelling of each email and key is kept, so the map stays as small
  // as the realm's accounts, whatever variants of a valid header a client sends.
  if (header === `Basic ${credentials.toString('base64')}`) verifiedHeaders(realm).set(header, user);
  return user;
}

/**
 * Authorization headers that authenticated, with their account, until the users table changes
 * (cache_version: a new key, a deactivation). A client sends the same header with every
 * request, and decoding and comparing it again was about 6 µs of each request's shard time in
 * a CPU profile of `mixed` realistic 5,000. Only a header that passed every check gets here,
 * so a hit needs the exact header of a valid key.
 */
const verifiedHeaders = versionedCache(() => new Map<string, UserRow>());

const DUMMY_KEY = 'x'.repeat(32);

const knownAccounts = versionedCache(() => new Map<string, UserRow>());

/**
 * Every request authenticates, so known accounts are kept in memory until the users table
 * changes (cache_version). Unknown emails are not cached, so guessing cannot grow the map.
 */
function cachedUserByEmail(realm: Realm, email: string): UserRow | undefined {
  const byEmail = knownAccounts(realm);
  // Keyed by the email exactly as sent: SQLite's NOCASE folds only ASCII, and a key folded
  // differently could hand one account's row to a lookup for another.
  const cached = byEmail.get(email);
  if (cached) return cached;
  // The API email and the real one both authenticate (SPEC User.email).
  const user = userByEmail(realm, email) ?? userByDeliveryEmail(realm, email);
  if (user) byEmail.set(email, user);
  return user;
}
