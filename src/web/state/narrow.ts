/**
 * The views a person can open, how each asks the server for its messages, how it is written
 * in the location hash (the grammar in app/panels/contracts.ts), and whether a live message
 * belongs in it.
 */
import { HASH_PREFIX } from '../app/panels/contracts';
import type { ChatSnapshot, DisplayRecipient, Message } from '../common/types';
import { searchTerms, type NarrowTerm } from './search-query';

export { HASH_PREFIX };
export type { NarrowTerm };

export type Narrow =
  | { kind: 'all' }
  | { kind: 'stream'; streamId: number }
  | { kind: 'topic'; streamId: number; topic: string }
  /** The other people's IDs, ascending; only my own ID for the conversation with myself. */
  | { kind: 'dm'; userIds: readonly number[] }
  | { kind: 'search'; words: string }
  | { kind: 'starred' }
  | { kind: 'mentioned' };

/** The API's `narrow` parameter of GET /messages. */
export function toApiNarrow(narrow: Narrow): NarrowTerm[] {
  switch (narrow.kind) {
    case 'all':
      return [];
    case 'stream':
      return [{ operator: 'stream', operand: narrow.streamId }];
    case 'topic':
      return [
        { operator: 'stream', operand: narrow.streamId },
        { operator: 'topic', operand: narrow.topic },
      ];
    case 'dm':
      return [{ operator: 'dm', operand: narrow.userIds }];
    case 'search':
      return searchTerms(narrow.words);
    case 'starred':
      return [{ operator: 'is', operand: 'starred' }];
    case 'mentioned':
      return [{ operator: 'is', operand: 'mentioned' }];
  }
}

export function toHash(narrow: Narrow): string {
  switch (narrow.kind) {
    case 'all':
      return `${HASH_PREFIX}all`;
    case 'stream':
      return `${HASH_PREFIX}stream/${narrow.streamId}`;
    case 'topic':
      return `${HASH_PREFIX}stream/${narrow.streamId}/topic/${hashEncode(narrow.topic)}`;
    case 'dm':
      return `${HASH_PREFIX}dm/${narrow.userIds.join(',')}`;
    case 'search':
      return `${HASH_PREFIX}search/${hashEncode(narrow.words)}`;
    case 'starred':
      return `${HASH_PREFIX}is/starred`;
    case 'mentioned':
      return `${HASH_PREFIX}is/mentioned`;
  }
}

const HASH_SAFE_BYTE = /^[A-Za-z0-9_~-]$/;

/**
 * The narrow-URL operand encoding the server renders links with (api-notes §g): every byte
 * outside `[A-Za-z0-9_~-]` percent-encoded, then `%` written `.` ("a b" -> "a.20b").
 */
export function hashEncode(text: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(text)) {
    const char = String.fromCharCode(byte);
    out += HASH_SAFE_BYTE.test(char) ? char : `.${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const POSITIVE_ID = /^[1-9][0-9]*$/;

/** `hashEncode` undone; `%XX` escapes (as a browser may write them) are read too. */
function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\.([0-9A-Fa-f]{2})/g, '%$1'));
  } catch {
    return null;
  }
}

/** `12` or the server's `12-stream-name` slug: the ID before the first `-`. */
function idOf(operand: string | undefined): number | null {
  const id = operand?.split('-', 1)[0] ?? '';
  return POSITIVE_ID.test(id) ? Number(id) : null;
}

/**
 * A hash to its narrow; null for anything that is not a view address (the app opens `all`).
 * Reads the page's own addresses and the ones the server renders in messages
 * (`/#narrow/stream/12-name/topic/a.20b`, `/#narrow/dm/5,7-group`; api-notes §g).
 */
export function parseHash(hash: string): Narrow | null {
  const address = hash.startsWith('/') ? hash.slice(1) : hash;
  if (!address.startsWith(HASH_PREFIX)) return null;
  // A message link (`…/near/<id>` or `…/with/<id>`) opens its conversation.
  const parts = address
    .slice(HASH_PREFIX.length)
    .replace(/\/(near|with)\/\d+$/, '')
    .split('/');
  const [kind, first, second, third] = parts;
  if (kind === 'all' && parts.length === 1) return { kind: 'all' };
  if (kind === 'stream' || kind === 'channel') {
    const streamId = idOf(first);
    if (streamId === null) return null;
    if (parts.length === 2) return { kind: 'stream', streamId };
    if (parts.length === 4 && (second === 'topic' || second === 'subject') && third !== undefined) {
      const topic = decode(third);
      return topic === null || topic === '' ? null : { kind: 'topic', streamId, topic };
    }
    return null;
  }
  if ((kind === 'dm' || kind === 'pm-with') && parts.length === 2 && first !== undefined) {
    const ids = (first.split('-', 1)[0] ?? '').split(',');
    if (!ids.every((id) => POSITIVE_ID.test(id))) return null;
    return { kind: 'dm', userIds: [...new Set(ids.map(Number))].sort((a, b) => a - b) };
  }
  if (kind === 'search' && parts.length === 2 && first !== undefined) {
    const words = decode(first);
    return words === null || words.trim() === '' ? null : { kind: 'search', words };
  }
  if (kind === 'is' && parts.length === 2 && (first === 'starred' || first === 'mentioned')) return { kind: first };
  return null;
}

/** The other participants of a direct message, ascending (my own ID alone when I wrote to myself). */
export function dmPartners(recipients: readonly DisplayRecipient[], myId: number): number[] {
  const others = recipients.map((recipient) => recipient.id).filter((id) => id !== myId);
  return others.length > 0 ? [...new Set(others)].sort((a, b) => a - b) : [myId];
}

/** The key of a direct conversation: its partners' IDs, comma-joined. */
export function dmKey(userIds: readonly number[]): string {
  return userIds.join(',');
}

export function messageDmKey(message: Pick<Message, 'display_recipient'>, myId: number): string | null {
  return Array.isArray(message.display_recipient) ? dmKey(dmPartners(message.display_recipient, myId)) : null;
}

export function sameTopic(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Whether a live message belongs in the open view (a search is fetched again instead). */
export function matchesNarrow(narrow: Narrow, message: Message, myId: number): boolean {
  switch (narrow.kind) {
    case 'all':
      return true;
    case 'stream':
      return message.type === 'stream' && message.stream_id === narrow.streamId;
    case 'topic':
      return message.type === 'stream' && message.stream_id === narrow.streamId && sameTopic(message.subject, narrow.topic);
    case 'dm':
      return messageDmKey(message, myId) === dmKey(narrow.userIds);
    case 'search':
      return false;
    case 'starred':
      return message.flags.includes('starred');
    case 'mentioned':
      return message.flags.includes('mentioned') || message.flags.includes('wildcard_mentioned');
  }
}

/** A direct conversation names the other people; an address that lists me too is read without me. */
export function withoutMe(narrow: Narrow, myId: number): Narrow {
  if (narrow.kind !== 'dm' || !narrow.userIds.includes(myId) || narrow.userIds.length === 1) return narrow;
  return { kind: 'dm', userIds: narrow.userIds.filter((id) => id !== myId) };
}

export function sameNarrow(a: Narrow, b: Narrow): boolean {
  return toHash(a) === toHash(b);
}

/** What the view is called, in the page title and above the messages. */
export function narrowTitle(narrow: Narrow, snapshot: Pick<ChatSnapshot, 'streams' | 'users'>): string {
  const streamName = (id: number) => snapshot.streams.get(id)?.name ?? `Stream ${id}`;
  switch (narrow.kind) {
    case 'all':
      return 'All messages';
    case 'stream':
      return `#${streamName(narrow.streamId)}`;
    case 'topic':
      return `#${streamName(narrow.streamId)} > ${narrow.topic}`;
    case 'dm':
      return narrow.userIds.map((id) => snapshot.users.get(id)?.full_name ?? `User ${id}`).join(', ');
    case 'search':
      return `Search: ${narrow.words}`;
    case 'starred':
      return 'Starred messages';
    case 'mentioned':
      return 'Mentions';
  }
}
