import { errors } from '../lib/errors';
import type { NarrowTerm, Reference } from '../lib/narrow';
import { ROLE } from '../lib/roles';
import { ftsExpression, highlightWords, parseSearch } from '../lib/search-query';
import type { Realm } from '../realm';
import { directKeyOf, directRecipientByKey, messageById, userFlags } from './messages';
import type { ResolvedNarrow, ResolvedTerm } from './narrow-sql';
import { canReadStreamHistory, streamById, streamByName, type StreamRow } from './streams';
import { userByEmail, userById, type UserRow } from './users';

/**
 * Resolves parsed narrow terms against the realm (stream and user names to IDs, `with` to its
 * conversation) and decides whether the query reads stream history (api-notes §b "Which
 * messages"): only with a non-negated `stream` term for a stream whose history the viewer may
 * see, or `streams:public`; an `is:` term on per-user flags turns it off.
 */
export function resolveNarrow(realm: Realm, viewer: UserRow, terms: readonly NarrowTerm[]): ResolvedNarrow {
  const resolved: ResolvedTerm[] = [];
  let near: number | null = null;
  const highlight = new Set<string>();
  let hasSearch = false;
  let historyAllowed = false;
  let historyBlocked = false;
  const isGuest = viewer.role === ROLE.GUEST;

  for (const term of expandWith(realm, viewer, terms)) {
    const negated = term.negated;
    switch (term.operator) {
      case 'stream': {
        const stream = resolveStream(realm, term.operand);
        if (!negated && canReadStreamHistory(realm, viewer, stream)) historyAllowed = true;
        resolved.push({ kind: 'stream', streamId: stream.id, negated });
        break;
      }
      case 'streams':
        if (!negated && !isGuest) historyAllowed = true;
        resolved.push({ kind: 'streams', webPublicOnly: term.operand === 'web-public', negated });
        break;
      case 'topic':
        resolved.push({ kind: 'topic', topic: term.operand, negated });
        break;
      case 'sender':
        resolved.push({ kind: 'sender', userId: resolveUser(realm, term.operand).id, negated });
        break;
      case 'dm':
        resolved.push({ kind: 'recipient', recipientId: directRecipientId(realm, viewer, term.operand), negated });
        break;
      case 'dm-including':
        resolved.push({ kind: 'dm-including', userId: resolveUser(realm, term.operand).id, negated });
        break;
      case 'group-pm-with':
        resolved.push({ kind: 'group-dm-with', userId: resolveUser(realm, term.operand).id, negated });
        break;
      case 'is':
        // `resolved` and `followed` are properties of the topic, not of per-user rows.
        if (term.operand !== 'resolved' && term.operand !== 'followed') historyBlocked = true;
        resolved.push({ kind: 'is', operand: term.operand, negated });
        break;
      case 'has':
        resolved.push({ kind: 'has', operand: term.operand, negated });
        break;
      case 'in':
        // `in:all` filters nothing; `in:home` leaves out muted streams.
        if (term.operand === 'home') resolved.push({ kind: 'in-home', negated });
        break;
      case 'id':
        resolved.push({ kind: 'id', messageId: term.operand, negated });
        break;
      case 'near':
        // Not a filter: clients send it to pick the anchor.
        near = term.operand;
        break;
      case 'with':
        break; // expanded above
      case 'search': {
        const query = parseSearch(term.operand);
        resolved.push({ kind: 'search', match: ftsExpression(query), negated });
        if (!negated) {
          hasSearch = true;
          for (const word of highlightWords(query)) highlight.add(word);
        }
        break;
      }
    }
  }
  return {
    viewerId: viewer.id,
    terms: resolved,
    includeHistory: historyAllowed && !historyBlocked,
    near,
    highlight: hasSearch ? highlight : null,
  };
}

function resolveStream(realm: Realm, operand: Reference): StreamRow {
  const stream = typeof operand === 'number' ? streamById(realm, operand) : streamByName(realm, operand);
  if (!stream) throw errors.badNarrow(`unknown stream ${String(operand)}`);
  return stream;
}

function resolveUser(realm: Realm, operand: Reference): UserRow {
  const user = typeof operand === 'number' ? userById(realm, operand) : userByEmail(realm, operand);
  if (!user) throw errors.badNarrow(`unknown user ${String(operand)}`);
  return user;
}

/** The exact conversation between the viewer and these users; null if it never existed. */
function directRecipientId(realm: Realm, viewer: UserRow, operand: readonly Reference[]): number | null {
  const ids = new Set([viewer.id, ...operand.map((ref) => resolveUser(realm, ref).id)]);
  const key = [...ids].sort((a, b) => a - b).join(',');
  return directRecipientByKey(realm, key)?.id ?? null;
}

/**
 * `with:<message id>` narrows to that message's conversation: its stream and topic, or its
 * direct conversation. The message must be one the viewer can read.
 */
function expandWith(realm: Realm, viewer: UserRow, terms: readonly NarrowTerm[]): NarrowTerm[] {
  return terms.flatMap((term): NarrowTerm[] => {
    if (term.operator !== 'with') return [term];
    const message = messageById(realm, term.operand);
    const stream = message && message.stream_id !== null ? streamById(realm, message.stream_id) : undefined;
    const received = message !== undefined && userFlags(realm, viewer.id, message.id) !== undefined;
    if (!message || (!received && !(stream && canReadStreamHistory(realm, viewer, stream)))) {
      throw errors.badNarrow(`invalid 'with' operand ${term.operand}`);
    }
    if (stream) {
      return [
        { operator: 'stream', operand: stream.id, negated: false },
        { operator: 'topic', operand: message.topic, negated: false },
      ];
    }
    const key = directKeyOf(realm, message.recipient_id);
    return [{ operator: 'dm', operand: key.split(',').map(Number), negated: false }];
  });
}
