import { ROLE } from '../lib/roles';
import { storedRow } from '../lib/stored-row';
import type { Realm } from '../realm';
import { versionedCache } from './cache-version';
import type { UserRow } from './users';
import type { StreamObject } from '../schemas/objects';

export interface StreamRow {
  id: number;
  name: string;
  recipient_id: number;
  description: string;
  rendered_description: string;
  date_created: number;
  invite_only: number;
  is_web_public: number;
  stream_post_policy: number;
  message_retention_days: number | null;
  history_public_to_subscribers: number;
  first_message_id: number | null;
  can_remove_subscribers_group_id: number;
  is_default: number;
  deactivated: number;
}

/** SPEC Stream.stream_post_policy. */
export const STREAM_POST_POLICY = { EVERYONE: 1, ADMINS: 2, FULL_MEMBERS: 3, MODERATORS: 4 } as const;

/**
 * Active streams as looked up since cache_version last moved, by ID and by name folded as
 * SQLite's NOCASE folds it (ASCII letters only); misses are kept too. Rows are frozen, since
 * every caller shares them.
 */
class StreamLookups {
  readonly byId = new Map<number, StreamRow | undefined>();
  readonly byName = new Map<string, StreamRow | undefined>();
}

const streamLookups = versionedCache(() => new StreamLookups());

function foldNocase(name: string): string {
  return name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

function readStreamByName(realm: Realm, name: string): StreamRow | undefined {
  return realm.rows<StreamRow, [string]>('SELECT * FROM streams WHERE name = ? COLLATE NOCASE AND deactivated = 0').get(name);
}

function readStreamById(realm: Realm, id: number): StreamRow | undefined {
  return realm.rows<StreamRow, [number]>('SELECT * FROM streams WHERE id = ? AND deactivated = 0').get(id);
}

/** A stream the caller knows exists, archived or not, read afresh (inside its own transaction, after a write). */
export function storedStream(realm: Realm, id: number): StreamRow {
  return storedRow(realm.rows<StreamRow, [number]>('SELECT * FROM streams WHERE id = ?').get(id), `stream ${id}`);
}

export function streamByName(realm: Realm, name: string): StreamRow | undefined {
  return lookUp(
    realm,
    (lookups) => lookups.byName,
    foldNocase(name),
    () => readStreamByName(realm, name),
  );
}

export function streamById(realm: Realm, id: number): StreamRow | undefined {
  return lookUp(
    realm,
    (lookups) => lookups.byId,
    id,
    () => readStreamById(realm, id),
  );
}

/**
 * Inside a transaction too: a stream changed by the transaction moved cache_version on, so the
 * lookups of before are not handed out; and while the version stands, a row read now is the
 * committed one. (Sends re-read their stream in the writing transaction, 8.8 µs a message.)
 */
function lookUp<K>(
  realm: Realm,
  mapOf: (lookups: StreamLookups) => Map<K, StreamRow | undefined>,
  key: K,
  read: () => StreamRow | undefined,
): StreamRow | undefined {
  const map = mapOf(streamLookups(realm));
  if (map.has(key)) return map.get(key);
  const row = read();
  map.set(key, row && Object.freeze(row));
  return row;
}

/** A stream's active subscriptions: every subscriber, and those whose accounts are active, in the file's order. */
interface Subscribers {
  all: ReadonlySet<number>;
  activeUsers: readonly number[];
}

/*
 * Read once per stream while cache_version stands: subscriptions (who, not their settings) and
 * users both move it (migrations 1 and 19), so a send neither asks the file whether its sender
 * may post nor who receives it (queries of their own, a sixth of a send's time on the shard).
 */
const subscribersByStream = versionedCache(() => new Map<number, Subscribers>());

function subscribersOf(realm: Realm, streamId: number): Subscribers {
  const cached = subscribersByStream(realm);
  let subscribers = cached.get(streamId);
  if (!subscribers) {
    const rows = realm
      .rows<{ id: number; is_active: number }, [number]>(
        `SELECT s.user_id AS id, u.is_active FROM subscriptions s JOIN users u ON u.id = s.user_id
         WHERE s.stream_id = ? AND s.active = 1`,
      )
      .all(streamId);
    subscribers = { all: new Set(rows.map((r) => r.id)), activeUsers: rows.filter((r) => r.is_active === 1).map((r) => r.id) };
    cached.set(streamId, subscribers);
  }
  return subscribers;
}

export function isSubscribed(realm: Realm, userId: number, streamId: number): boolean {
  if (!realm.db.inTransaction) return subscribersOf(realm, streamId).all.has(userId);
  // In a transaction, once a write has moved cache_version, nothing read is kept: reading the
  // stream's whole list for every question (a loop over thousands of principals) would cost
  // what the one-row lookup does not.
  const known = subscribersByStream(realm).get(streamId);
  if (known) return known.all.has(userId);
  return realm.stmt('SELECT 1 FROM subscriptions WHERE user_id = ? AND stream_id = ? AND active = 1').get(userId, streamId) !== undefined;
}

/**
 * Can `user` read the whole history of `stream`, messages sent before they joined included?
 * Web-public streams: everyone; public streams: everyone but guests; private streams: subscribers when the history is shared
 * (SPEC Stream.history_public_to_subscribers).
 */
export function canReadStreamHistory(realm: Realm, user: UserRow, stream: StreamRow): boolean {
  // stream-reads: a web-public stream's history is open to every user, guests included.
  if (stream.is_web_public === 1) return true;
  if (!stream.invite_only && user.role !== ROLE.GUEST) return true;
  return stream.history_public_to_subscribers === 1 && isSubscribed(realm, user.id, stream.id);
}

/**
 * Who may see that a stream exists, its metadata and its subscribers: its subscribers, everyone
 * for a web-public stream, every non-guest for a public one, and for a private one the
 * administrators. The one rule behind lookups, register's lists and the stream events' audience.
 */
export function canSeeStream(role: number, subscribed: boolean, stream: StreamRow): boolean {
  if (subscribed || stream.is_web_public === 1) return true;
  if (stream.invite_only === 0) return role !== ROLE.GUEST;
  return role <= ROLE.ADMINISTRATOR;
}

export function subscriberIds(realm: Realm, streamId: number): number[] {
  return [...subscribersOf(realm, streamId).activeUsers];
}

/**
 * At most `limit` of the stream's active subscribers: enough to tell a stream is too large. From
 * the subscribers a send reads too, while cache_version stands: a query of its own (a join
 * reading up to `limit` rows) was 250 µs of every stream typing notice under load.
 */
export function subscriberIdsUpTo(realm: Realm, streamId: number, limit: number): number[] {
  return subscribersOf(realm, streamId).activeUsers.slice(0, limit);
}

/** The API's stream object (SPEC §Resources, Stream). */
export function streamObject(row: StreamRow, includeIsDefault = false): StreamObject {
  const stream: StreamObject = {
    stream_id: row.id,
    name: row.name,
    description: row.description,
    rendered_description: row.rendered_description,
    date_created: row.date_created,
    invite_only: row.invite_only === 1,
    is_web_public: row.is_web_public === 1,
    stream_post_policy: row.stream_post_policy,
    message_retention_days: row.message_retention_days,
    history_public_to_subscribers: row.history_public_to_subscribers === 1,
    first_message_id: row.first_message_id,
    is_announcement_only: row.stream_post_policy === STREAM_POST_POLICY.ADMINS,
    can_remove_subscribers_group_id: row.can_remove_subscribers_group_id,
  };
  if (includeIsDefault) stream.is_default = row.is_default === 1;
  return stream;
}

export interface StreamListOptions {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  includeAllActive: boolean;
  includeOwnerSubscribedFor: number | null;
}

/** An active stream with its API object, both shared by every caller while cache_version stands. */
export interface ListedStream {
  row: Readonly<StreamRow>;
  object: Readonly<StreamObject>;
}

/**
 * Every active stream by name (NOCASE, as the unique index orders them), kept until
 * cache_version moves: register lists them for each person who loads the page, and reading
 * and ordering 252 rows twice was 3 of its 5 ms in a realm of 5,000 people after its people
 * were cached.
 */
export const activeStreamsByName: (realm: Realm) => readonly ListedStream[] = versionedCache((realm) =>
  realm
    .rows<StreamRow, []>('SELECT * FROM streams WHERE deactivated = 0 ORDER BY name COLLATE NOCASE')
    .all()
    .map((row) => ({ row: Object.freeze(row), object: Object.freeze(streamObject(row)) })),
);

/** The streams `userId` is actively subscribed to. */
export function activeSubscriptionsOf(realm: Realm, userId: number): Set<number> {
  const rows = realm
    .rows<{ stream_id: number }, [number]>('SELECT stream_id FROM subscriptions WHERE user_id = ? AND active = 1')
    .all(userId);
  return new Set(rows.map((row) => row.stream_id));
}

/** GET /streams and register's `streams`: the union of the requested classes, by name. */
export function listStreams(realm: Realm, userId: number, options: StreamListOptions): readonly ListedStream[] {
  const all = activeStreamsByName(realm);
  if (options.includeAllActive) return all;
  const subscribed = options.includeSubscribed ? activeSubscriptionsOf(realm, userId) : null;
  const ownerSubscribed =
    options.includeOwnerSubscribedFor !== null ? activeSubscriptionsOf(realm, options.includeOwnerSubscribedFor) : null;
  return all.filter(
    ({ row }) =>
      (options.includePublic && row.invite_only === 0) ||
      (options.includeWebPublic && row.is_web_public === 1) ||
      subscribed?.has(row.id) === true ||
      ownerSubscribed?.has(row.id) === true,
  );
}
