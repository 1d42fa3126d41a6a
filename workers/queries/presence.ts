import { JsonBytes } from '../lib/json-bytes';
import type { PresenceTimes } from '../lib/presence';
import type { Realm } from '../realm';
import { cacheVersion, versionedCache } from './cache-version';
import { realmSettings } from './realm-settings';
import { userSettings } from './user-settings';
import type { LegacyClientPresence } from '../schemas/objects';

/*
 * Presence as the public API shows it (7.0, feature level 178): only the last ping and the
 * last active ping are kept, so every entry has one client, "website".
 */

/** api-notes §e: the offline threshold clients use, and the server too for GET /users/{id}/presence. */
export const OFFLINE_THRESHOLD_S = 200;
/** A user is "active" when their last active ping is at most this much older than their last ping. */
const ACTIVE_OFFSET_S = 70;
export const PRESENCE_CLIENT = 'website';

export interface LegacyPresence {
  client: string;
  status: 'active' | 'idle';
  timestamp: number;
  pushable: boolean;
}

export function legacyStatus(times: PresenceTimes): { status: 'active' | 'idle'; timestamp: number } {
  if (times.lastActive !== null && times.lastActive + ACTIVE_OFFSET_S >= times.lastConnected) {
    return { status: 'active', timestamp: times.lastActive };
  }
  return { status: 'idle', timestamp: times.lastConnected };
}

/** The legacy per-user object: `website` and `aggregated` with the same data. */
export function legacyPresence(times: PresenceTimes): Record<string, LegacyClientPresence> {
  const { status, timestamp } = legacyStatus(times);
  return {
    [PRESENCE_CLIENT]: { client: PRESENCE_CLIENT, status, timestamp, pushable: false },
    aggregated: { client: PRESENCE_CLIENT, status, timestamp },
  };
}

/** The slim per-user object (SPEC POST /register slim_presence). */
export function slimPresence(times: PresenceTimes): { active_timestamp: number; idle_timestamp: number } {
  return { active_timestamp: times.lastActive ?? times.lastConnected, idle_timestamp: times.lastConnected };
}

interface VisibleUser {
  id: number;
  email: string;
  settings: string;
}

/**
 * Users whose presence others may see: active, not bots, with `presence_enabled` (a user who
 * turned it off appears offline, i.e. absent). Every non-ping_only presence POST asks (each
 * client, every minute), so the users table is read and parsed only when it changed.
 */
const visibleUsers = versionedCache((realm: Realm): Map<number, VisibleUser> => {
  const rows = realm.rows<VisibleUser, []>('SELECT id, email, settings FROM users WHERE is_active = 1 AND is_bot = 0').all();
  return new Map(rows.filter((row) => userSettings(row).presence_enabled).map((row): [number, VisibleUser] => [row.id, row]));
});

/** A user's entry in the presences object as JSON (`"key":{...}`), in the slim or legacy form. */
interface EntryJson {
  slim?: Buffer;
  legacy?: Buffer;
  legacyEmail?: string;
}

/*
 * Each entry's JSON lives as long as the times it was made from: a ping records new times, so
 * an entry is serialised once per ping, not once per answer that lists it (every client asks
 * for the whole realm's presence every minute: at 5,000 people, 83 answers of 5,000 entries a
 * second).
 */
const entryJson = new WeakMap<PresenceTimes, EntryJson>();
const OPEN = Buffer.from('{');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('}');
const EMPTY_OBJECT = Buffer.from('{}');

function entryOf(times: PresenceTimes, userId: number, email: string, slim: boolean): Buffer {
  let cached = entryJson.get(times);
  if (!cached) entryJson.set(times, (cached = {}));
  if (slim) return (cached.slim ??= Buffer.from(`"${userId}":${JSON.stringify(slimPresence(times))}`));
  if (cached.legacy === undefined || cached.legacyEmail !== email) {
    cached.legacy = Buffer.from(`${JSON.stringify(email)}:${JSON.stringify(legacyPresence(times))}`);
    cached.legacyEmail = email;
  }
  return cached.legacy;
}

/** Entries per chunk of a presences snapshot: a ping copies one chunk (a few KiB), not the whole object. */
export const PRESENCE_CHUNK_ENTRIES = 64;

/**
 * The presences object of one form (slim or legacy) as chunks of serialised entries, with each
 * entry's place: an answer hands out the chunks instead of joining an entry per person (at 5,000
 * people, 83 answers of 5,000 entries a second), and a ping rewrites its entry in place when the
 * new JSON is as long as the old (a slim entry always is: two ten-digit times). Anything else,
 * such as a first ping, a legacy entry whose status changed or a change to the users table,
 * rebuilds it. A chunk already handed to an answer is copied before it is patched; copying the
 * whole object instead cost 324 µs a ping at 5,000 people (CPU profile of `mixed`).
 */
class PresencesSnapshot {
  private chunks: Buffer[] = [];
  /** Per chunk: it went out in an answer, which may still be reading it. */
  private handedOut: boolean[] = [];
  private readonly spans = new Map<number, { chunk: number; start: number; length: number }>();
  private version = -1;
  private readonly changed: Set<number>;

  constructor(
    realm: Realm,
    private readonly slim: boolean,
    private readonly chunkEntries: number,
  ) {
    this.changed = realm.presence.watch();
  }

  /** The object's JSON as pieces to send one after another. */
  read(realm: Realm): Buffer[] {
    const version = cacheVersion(realm);
    if (version !== this.version || !this.patch(realm)) {
      const built = this.build(realm);
      // Built inside a transaction it may show rows that roll back (queries/cache-version.ts).
      if (realm.db.inTransaction) return [OPEN, ...built, CLOSE];
      this.chunks = built;
      this.version = version;
      this.changed.clear();
    }
    this.handedOut = this.chunks.map(() => true);
    return [OPEN, ...this.chunks, CLOSE];
  }

  /** Applies the pings since the last read; false when one of them needs a rebuild. */
  private patch(realm: Realm): boolean {
    if (this.changed.size === 0) return true;
    const users = visibleUsers(realm);
    for (const userId of this.changed) {
      const user = users.get(userId);
      if (!user) continue;
      const span = this.spans.get(userId);
      const times = realm.presence.get(userId);
      if (!span || !times) return false;
      const entry = entryOf(times, userId, user.email, this.slim);
      if (entry.length !== span.length) return false;
      let chunk = this.chunks[span.chunk] as Buffer;
      if (this.handedOut[span.chunk]) {
        this.chunks[span.chunk] = chunk = Buffer.from(chunk);
        this.handedOut[span.chunk] = false;
      }
      entry.copy(chunk, span.start);
    }
    this.changed.clear();
    return true;
  }

  private build(realm: Realm): Buffer[] {
    const users = visibleUsers(realm);
    const chunks: Buffer[] = [];
    let pieces: Buffer[] = [];
    let offset = 0;
    this.spans.clear();
    for (const [userId, times] of realm.presence.entries()) {
      const user = users.get(userId);
      if (!user) continue;
      if (chunks.length > 0 || pieces.length > 0) {
        pieces.push(COMMA);
        offset += COMMA.length;
      }
      const entry = entryOf(times, userId, user.email, this.slim);
      this.spans.set(userId, { chunk: chunks.length, start: offset, length: entry.length });
      pieces.push(entry);
      offset += entry.length;
      if (this.spans.size % this.chunkEntries === 0) {
        chunks.push(Buffer.concat(pieces, offset));
        pieces = [];
        offset = 0;
      }
    }
    if (pieces.length > 0) chunks.push(Buffer.concat(pieces, offset));
    return chunks;
  }
}

const snapshots = new WeakMap<Realm, { slim?: PresencesSnapshot; legacy?: PresencesSnapshot }>();

/** realmPresences as pre-serialised JSON, from the realm's snapshot of that form. */
export function realmPresencesJson(realm: Realm, slim: boolean, chunkEntries = PRESENCE_CHUNK_ENTRIES): JsonBytes {
  if (realmSettings(realm).presence_disabled) return new JsonBytes([EMPTY_OBJECT]);
  let forms = snapshots.get(realm);
  if (!forms) snapshots.set(realm, (forms = {}));
  const snapshot = slim
    ? (forms.slim ??= new PresencesSnapshot(realm, true, chunkEntries))
    : (forms.legacy ??= new PresencesSnapshot(realm, false, chunkEntries));
  return new JsonBytes(snapshot.read(realm));
}

/**
 * The `presence` fetch type (api-notes §e), also POST /users/me/presence's answer: every
 * visible user's presence, keyed by email (legacy) or user ID (slim); empty when the realm
 * turned presence off (`presence_disabled`).
 */
export function presenceStateJson(realm: Realm, slim: boolean): { presences: JsonBytes; server_timestamp: number } {
  return { presences: realmPresencesJson(realm, slim), server_timestamp: realm.clock.now() / 1000 };
}
