import { isUploadedAvatarUrl } from '../lib/avatar-url';
import { flagNames } from '../lib/flags';
import { JsonBytes } from '../lib/json-bytes';
import type { Realm } from '../realm';
import { versionedCache } from './cache-version';
import { FULL_COLUMNS, messageRowFromArray, searchMatch, viewerFlags, type MessageColumns, type RangeRow } from './message-fetch';
import { MessageLookups, sharedMessageFields, type MessageRow } from './messages';
import type { ResolvedNarrow } from './narrow-sql';

/** Enough for the recent pages of a busy realm's conversations; about 1 kB each. */
const MAX_CACHED_MESSAGES = 10_000;

export interface MessageOptions {
  applyMarkdown: boolean;
  /** SPEC Message.avatar_url: null tells the client to compute the external avatar itself. */
  clientExtavatar: boolean;
  /** The realm's allow_edit_history: without it, no message shows its edit history. */
  editHistory: boolean;
}

/** The options a message's JSON depends on, as an index into its cached texts. */
function variantOf(options: MessageOptions): number {
  return (options.applyMarkdown ? 1 : 0) | (options.clientExtavatar ? 2 : 0) | (options.editHistory ? 4 : 0);
}

interface CachedMessage {
  version: number;
  /** By variant: the object's JSON (UTF-8) without the viewer's flags and its closing brace. */
  texts: (Buffer | undefined)[];
  /** The entry's place in MessageTextCache.order. */
  slot: number;
}

/**
 * Message objects as JSON (UTF-8 bytes), by message ID: what every viewer of a message sees alike, as
 * the public API's server caches its message dictionaries. An entry holds while the message's
 * version (migration 16: its row and its reactions) is the one it was built from; the rest of
 * what the object shows (senders, streams, conversations) is behind cache_version, whose change
 * empties the whole cache. Past MAX_CACHED_MESSAGES, the entry built longest ago goes.
 */
export class MessageTextCache {
  private readonly entries = new Map<number, CachedMessage>();
  /**
   * Message IDs in the order their entries were built, as a ring. Not the Map's own order:
   * deleting its oldest key over and over leaves holes that every `keys().next()` walks past
   * (measured: 4.4 µs an insertion once the cache was full).
   */
  private readonly order: number[];
  private nextSlot = 0;

  constructor(private readonly capacity = MAX_CACHED_MESSAGES) {
    this.order = new Array<number>(capacity).fill(0);
  }

  get size(): number {
    return this.entries.size;
  }

  get(id: number, version: number, variant: number): Buffer | undefined {
    const entry = this.entries.get(id);
    return entry?.version === version ? entry.texts[variant] : undefined;
  }

  set(id: number, version: number, variant: number, text: Buffer): void {
    let entry = this.entries.get(id);
    if (entry?.version !== version) {
      const slot = this.nextSlot;
      this.nextSlot = (slot + 1) % this.capacity;
      const evicted = this.order[slot] as number;
      // The slot's message may have been built again since, into a later slot: then it stays.
      if (this.entries.get(evicted)?.slot === slot) this.entries.delete(evicted);
      this.order[slot] = id;
      entry = { version, texts: [], slot };
      this.entries.set(id, entry);
    }
    entry.texts[variant] = text;
  }
}

const messageTexts = versionedCache(() => new MessageTextCache());

const flagPieces = new Map<number, Buffer>();
const COMMA = Buffer.from(',');
const OPEN_LIST = Buffer.from('[');
const CLOSE_LIST = Buffer.from(']');

/** The viewer's flags, closing a message's object; a handful of distinct sets, each built once. */
function flagsPiece(flags: number): Buffer {
  let piece = flagPieces.get(flags);
  if (piece === undefined) flagPieces.set(flags, (piece = Buffer.from(`,"flags":${JSON.stringify(flagNames(flags))}}`)));
  return piece;
}

/**
 * A page of message objects (GET /messages) as a JSON list: each message's cached text, then
 * the viewer's flags, then `match_content` and `match_subject` when the narrow searches. Only
 * messages without a current text are read in full; a search reads every one, to highlight it.
 */
export function fetchedMessagesJson(realm: Realm, narrow: ResolvedNarrow, rows: readonly RangeRow[], options: MessageOptions): JsonBytes {
  const cache = messageTexts(realm);
  const variant = variantOf(options);
  const texts = rows.map((row) => cache.get(row.id, row.version, variant));
  const missing = rows.filter((_, i) => texts[i] === undefined).map((row) => row.id);
  const lookups = new MessageLookups(realm);
  if (missing.length > 0) lookups.preloadReactions(missing);
  const messages = readMessages(realm, narrow.highlight ? rows.map((row) => row.id) : missing);
  const pieces: Buffer[] = [OPEN_LIST];
  rows.forEach((row, i) => {
    const message = messages.get(row.id);
    let text = texts[i];
    if (text === undefined) {
      if (!message) throw new Error(`message ${row.id} was selected but could not be read`);
      text = messageText(realm, message, options, lookups);
      cache.set(row.id, message.version, variant, text);
    }
    if (i > 0) pieces.push(COMMA);
    pieces.push(text);
    if (narrow.highlight && message) {
      const match = searchMatch(message, narrow.highlight);
      pieces.push(
        Buffer.from(`,"match_content":${JSON.stringify(match.match_content)},"match_subject":${JSON.stringify(match.match_subject)}`),
      );
    }
    pieces.push(flagsPiece(viewerFlags(row)));
  });
  pieces.push(CLOSE_LIST);
  return new JsonBytes(pieces);
}

/** Full rows by ID; the parameter is the IDs as a JSON list. Exported for the query-plan test. */
export const MESSAGES_BY_ID = `SELECT ${FULL_COLUMNS} FROM messages m WHERE m.id IN (SELECT value FROM json_each(?))`;

function readMessages(realm: Realm, ids: readonly number[]): Map<number, MessageRow> {
  if (ids.length === 0) return new Map();
  const rows = realm.rawStmt<MessageColumns, [string]>(MESSAGES_BY_ID).all(JSON.stringify(ids));
  return new Map(rows.map((values) => [values[0], messageRowFromArray(values)]));
}

/** A message object's JSON (UTF-8) without flags and without the closing brace. */
function messageText(realm: Realm, message: MessageRow, options: MessageOptions, lookups: MessageLookups): Buffer {
  const object = sharedMessageFields(realm, message, options.applyMarkdown, lookups);
  // SPEC Message.avatar_url: null unless the sender uploaded one (files: its URL cannot be computed).
  if (options.clientExtavatar && !isUploadedAvatarUrl(object.avatar_url)) object.avatar_url = null;
  if (!options.editHistory) delete object.edit_history;
  const json = JSON.stringify(object);
  return Buffer.from(json.slice(0, -1));
}
