/**
 * Typing notifications (SPEC POST /typing, api-notes §d typing). Nothing is stored: the action
 * validates and hands a notice to the realm's typing actor, which publishes it and sends the
 * `stop` itself when a `start` is not renewed in time.
 */
import type { TypingEvent, TypingNotice, TypingParticipant } from '../events/typing';
import { errors } from '../lib/errors';
import { accessStreamById } from '../queries/stream-access';
import { subscriberIdsUpTo } from '../queries/streams';
import { userSettings } from '../queries/user-settings';
import { userByEmail, userById, type UserRow } from '../queries/users';
import type { Realm } from '../realm';
import { checkStreamPost } from './messages';

/**
 * The public server's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS: stream typing is not delivered
 * in a stream of more subscribers, whose every typist would wake every subscriber's poll (the
 * work grows with the stream's size times its typists).
 */
export const MAX_STREAM_SIZE_FOR_TYPING = 100;

export interface TypingRequest {
  /** `private` is the deprecated name of `direct` (SPEC POST /typing). */
  type: 'direct' | 'private' | 'stream';
  op: 'start' | 'stop';
  /** Direct: user IDs (or, as older clients send, API emails); stream: one stream ID. */
  to: (number | string)[];
  topic: string | undefined;
}

/**
 * Validates a typing request in the public API's order (empty list, then the stream checks or
 * the direct ones) and builds the notice. Receivers (the issue: "to the recipients (not the
 * sender)"): direct typing goes to the other active participants, so typing to oneself
 * notifies no one; stream typing to the stream's other active subscribers, of whose queues
 * only those with `stream_typing_notifications` keep it (events/shape.ts), and no one in a
 * stream of over MAX_STREAM_SIZE_FOR_TYPING subscribers.
 */
export function checkTyping(realm: Realm, sender: UserRow, request: TypingRequest): TypingNotice {
  if (request.to.length === 0) throw errors.emptyToList();
  const senderRef: TypingParticipant = { user_id: sender.id, email: sender.email };
  if (request.type === 'stream') {
    if (request.to.length > 1) throw errors.multipleStreams();
    if (request.topic === undefined) throw errors.missingTopic();
    if (!userSettings(sender).send_stream_typing_notifications) throw errors.typingDisabled('stream');
    const streamId = request.to[0];
    if (typeof streamId !== 'number') throw errors.invalidArgument('to', 'to[0] is not an integer');
    // A stream the sender cannot access is unknown (administrators get no exception here).
    const stream = accessStreamById(realm, sender, streamId, false);
    checkStreamPost(realm, sender, stream);
    const event: TypingEvent = {
      type: 'typing',
      op: request.op,
      message_type: 'stream',
      sender: senderRef,
      stream_id: stream.id,
      topic: request.topic,
    };
    const subscribers = subscriberIdsUpTo(realm, stream.id, MAX_STREAM_SIZE_FOR_TYPING + 1);
    return {
      conversationKey: JSON.stringify([sender.id, 'stream', stream.id, request.topic]),
      event,
      userIds: subscribers.length > MAX_STREAM_SIZE_FOR_TYPING ? [] : subscribers.filter((id) => id !== sender.id),
    };
  }
  if (!userSettings(sender).send_private_typing_notifications) throw errors.typingDisabled('direct');
  const participants = directParticipants(realm, sender, request.to);
  const event: TypingEvent = {
    type: 'typing',
    op: request.op,
    // api-notes §d: `private` even when the request said `direct`.
    message_type: 'private',
    sender: senderRef,
    recipients: participants.map((user) => ({ user_id: user.id, email: user.email })),
  };
  const memberIds = participants.map((user) => user.id).sort((a, b) => a - b);
  return {
    conversationKey: JSON.stringify([sender.id, 'direct', ...memberIds]),
    event,
    // Deactivated participants stay in `recipients` (the conversation's identity) but get nothing.
    userIds: participants.filter((user) => user.id !== sender.id && user.is_active).map((user) => user.id),
  };
}

/** POST /typing: validates and hands the notice to the realm's typing actor. */
export function doTyping(realm: Realm, sender: UserRow, request: TypingRequest): void {
  const notice = checkTyping(realm, sender, request);
  if (notice.userIds.length === 0) return;
  if (!realm.typing) throw new Error('the typing actor is not attached to this realm');
  realm.typing.notify(notice);
}

/**
 * The conversation's participants in request order, the sender last unless named: the public
 * API's `recipients` list. Every ID must exist; a deactivated user is no error (the public API
 * keeps them in the conversation and only skips delivering to them).
 */
function directParticipants(realm: Realm, sender: UserRow, to: (number | string)[]): UserRow[] {
  const participants = new Map<number, UserRow>();
  for (const target of to) {
    const user = typeof target === 'number' ? userById(realm, target) : userByEmail(realm, target);
    if (!user) throw typeof target === 'number' ? errors.invalidUserId(target) : errors.invalidEmail(target);
    participants.set(user.id, user);
  }
  if (!participants.has(sender.id)) participants.set(sender.id, sender);
  return [...participants.values()];
}
