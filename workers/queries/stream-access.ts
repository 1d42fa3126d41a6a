import { errors } from '../lib/errors';
import { ROLE } from '../lib/roles';
import type { Realm } from '../realm';
import { canReadStreamHistory, canSeeStream, isSubscribed, streamById, streamByName, subscriberIds, type StreamRow } from './streams';
import type { UserRow } from './users';
import { hasRowParams, hasRowSql } from './user-message-rows';

/*
 * The read side of the stream access matrix (issue "Streams and subscriptions", api-notes §f):
 * who may look a stream up, list its subscribers and its topics. A stream the user may not
 * see answers exactly as a stream that does not exist, so its existence is never revealed.
 */

/**
 * May `user` see that `stream` exists and read its metadata? Public streams: every non-guest;
 * web-public streams: everyone, guests included; private streams: their subscribers, and the
 * administrators when `administratorsSeeAll` (metadata lookups; not topics, which are history).
 */
export function canSeeStreamMetadata(realm: Realm, user: UserRow, stream: StreamRow, administratorsSeeAll: boolean): boolean {
  // Without administratorsSeeAll an administrator counts as a member here.
  const role = administratorsSeeAll ? user.role : Math.max(user.role, ROLE.MEMBER);
  return canSeeStream(role, isSubscribed(realm, user.id, stream.id), stream);
}

/** The stream by ID if `user` may see it; otherwise `Invalid stream ID`, as for a missing one. */
export function accessStreamById(realm: Realm, user: UserRow, streamId: number, administratorsSeeAll = true): StreamRow {
  const stream = streamById(realm, streamId);
  if (!stream || !canSeeStreamMetadata(realm, user, stream, administratorsSeeAll)) throw errors.invalidStreamId();
  return stream;
}

/** GET /get_stream_id: an unknown or invisible name gives `Invalid stream name '<name>'`. */
export function accessStreamByName(realm: Realm, user: UserRow, name: string): StreamRow {
  const stream = streamByName(realm, name);
  if (!stream || !canSeeStreamMetadata(realm, user, stream, true)) throw errors.invalidStreamName(name);
  return stream;
}

/**
 * GET /streams/{stream_id}/members: subscribers of a public stream for non-guests, of any
 * stream for its subscribers and for administrators; guests see web-public ones' too.
 */
export function streamMembers(realm: Realm, user: UserRow, streamId: number): number[] {
  const stream = accessStreamById(realm, user, streamId);
  return subscriberIds(realm, stream.id);
}

export interface TopicSummary {
  name: string;
  max_id: number;
}

/**
 * GET /users/me/{stream_id}/topics: newest topic first. Who can read the stream's whole
 * history (canReadStreamHistory) gets every topic; anyone else only the topics of messages
 * they received (private streams without shared history, SPEC Stream.history_public_to_subscribers).
 * The name shown is the one the topic's latest message carries.
 */
export function streamTopics(realm: Realm, user: UserRow, streamId: number): TopicSummary[] {
  const stream = accessStreamById(realm, user, streamId, false);
  if (canReadStreamHistory(realm, user, stream)) {
    // messages_stream_topic (stream_id, topic COLLATE NOCASE, id, version)
    return realm
      .rows<TopicSummary, [number]>(
        `SELECT topic AS name, MAX(id) AS max_id FROM messages WHERE stream_id = ?
         GROUP BY topic COLLATE NOCASE ORDER BY max_id DESC`,
      )
      .all(stream.id);
  }
  // messages_stream_topic for the stream's messages, each probed in the primary keys of the user's rows
  return realm
    .rows<TopicSummary, [number, number, number]>(
      `SELECT m.topic AS name, MAX(m.id) AS max_id FROM messages m
       WHERE m.stream_id = ? AND ${hasRowSql('m.id')} GROUP BY m.topic COLLATE NOCASE ORDER BY max_id DESC`,
    )
    .all(stream.id, ...hasRowParams(user.id));
}
