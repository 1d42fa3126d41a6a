import { errors } from '../lib/errors';
import { FLAG_BIT } from '../lib/flags';
import { RESOLVED_TOPIC_PREFIX } from '../lib/resolved-topic';
import { ROLE } from '../lib/roles';
import { firstStreamMessageId, topicMessages, allSubscriberIds } from '../queries/message-edit';
import type { EditHistoryEntry } from '../queries/message-history';
import type { MessageEditSettings } from '../queries/realm-settings';
import { canReadStreamHistory, streamById, type StreamRow } from '../queries/streams';
import type { UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { sendNoticeTxn, silentMention } from './notifications';
import { writeEachTable } from '../queries/user-message-rows';

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

// The public API allows 20 seconds past each limit, for requests started just in time.
export const EDIT_LIMIT_BUFFER_S = 20;

/** A move of messages to another topic and/or stream, already validated. */
export interface MovePlan {
  target: { id: number; topic: string };
  /** The stream the messages are in now. */
  stream: StreamRow;
  /** Where they go: the same stream for a topic move. */
  newStream: StreamRow;
  /** null: the topic stays. */
  newTopic: string | null;
  propagateMode: PropagateMode;
}

/**
 * The messages a move takes along: the target alone, or the rest of its topic (all of it, or
 * the target and later). A user who cannot read the stream's whole history moves only the
 * messages they received (SPEC PATCH /messages/{message_id}, protected history).
 */
export function messagesToMove(realm: Realm, actor: UserRow, plan: MovePlan): number[] {
  if (plan.propagateMode === 'change_one') return [plan.target.id];
  const onlyFor = canReadStreamHistory(realm, actor, plan.stream) ? null : actor;
  const ids = topicMessages(realm, plan.stream.id, plan.target.topic, onlyFor)
    .map((m) => m.id)
    .filter((id) => plan.propagateMode === 'change_all' || id >= plan.target.id);
  if (!ids.includes(plan.target.id)) ids.push(plan.target.id);
  return ids.sort((a, b) => a - b);
}

/**
 * change_all by a user bound by the move time limits: every message of the topic (that the
 * user can read) must be within the stricter applicable limit, or the request fails with
 * MOVE_MESSAGES_TIME_LIMIT_EXCEEDED naming the part they may move (SPEC PATCH
 * /messages/{message_id}, feature level 172).
 */
export function checkMoveTimeLimitForTopic(realm: Realm, actor: UserRow, plan: MovePlan, settings: MessageEditSettings, now: number): void {
  if (plan.propagateMode !== 'change_all' || actor.role <= ROLE.MODERATOR) return;
  const limits: number[] = [];
  if (plan.newTopic !== null && settings.move_messages_within_stream_limit_seconds !== null) {
    limits.push(settings.move_messages_within_stream_limit_seconds);
  }
  if (plan.newStream.id !== plan.stream.id && settings.move_messages_between_streams_limit_seconds !== null) {
    limits.push(settings.move_messages_between_streams_limit_seconds);
  }
  if (limits.length === 0) return;
  const oldestAllowed = now - (Math.min(...limits) + EDIT_LIMIT_BUFFER_S);
  const onlyFor = canReadStreamHistory(realm, actor, plan.stream) ? null : actor;
  const inTopic = topicMessages(realm, plan.stream.id, plan.target.topic, onlyFor);
  const allowed = inTopic.filter((m) => m.date_sent > oldestAllowed);
  if (allowed.length === inTopic.length) return;
  throw errors.moveTimeLimitExceeded(allowed[0]?.id ?? null, inTopic.length, allowed.length);
}

export interface MoveOutcome {
  /** Users who no longer may read the moved messages: they get `delete_message` instead. */
  lostAccessUserIds: number[];
}

/**
 * Moves the messages to the new stream and/or topic, prepends `entry` to each one's edit
 * history and keeps per-user rows and first_message_id right.
 *
 * Per-user rows on a stream move (the public API's rule, made simpler): subscribers of the old
 * stream who are not subscribed to the new one lose their rows; those of them who cannot read
 * the new stream (it is private, or they are guests) lose access and are told the messages
 * were deleted. Subscribers of the new stream who had no row get one, marked read, so the
 * moved messages are theirs as if received (for a stream with protected history that is what
 * lets them see the messages at all).
 */
export function moveMessagesTxn(
  tx: Txn,
  plan: MovePlan,
  ids: readonly number[],
  now: number,
  entryFor: (id: number) => EditHistoryEntry,
  topicLinksJson: string | null,
): MoveOutcome {
  const realm = tx.realm;
  const newTopic = plan.newTopic;
  const moveRow = realm.stmt(
    `UPDATE messages SET stream_id = ?, recipient_id = ?, topic = coalesce(?, topic),
       topic_links = coalesce(?, topic_links), last_edit_timestamp = ?, edit_history = ? WHERE id = ?`,
  );
  const history = realm.rows<{ edit_history: string | null }, [number]>('SELECT edit_history FROM messages WHERE id = ?');
  for (const id of ids) {
    const stored = history.get(id)?.edit_history ?? null;
    const entries = stored ? (JSON.parse(stored) as EditHistoryEntry[]) : [];
    entries.unshift(entryFor(id));
    moveRow.run(plan.newStream.id, plan.newStream.recipient_id, newTopic, topicLinksJson, now, JSON.stringify(entries), id);
  }
  if (plan.newStream.id === plan.stream.id) return { lostAccessUserIds: [] };

  const oldSubscribers = allSubscriberIds(realm, plan.stream.id);
  const newSubscribers = new Set(allSubscriberIds(realm, plan.newStream.id));
  const losingRows = oldSubscribers.filter((id) => !newSubscribers.has(id));
  const roleOf = (userId: number) => realm.oneRow<{ role: number }, [number]>('SELECT role FROM users WHERE id = ?', userId).role;
  const lostAccessUserIds = losingRows.filter((userId) => plan.newStream.invite_only === 1 || roleOf(userId) === ROLE.GUEST);
  const deleteRow = writeEachTable(realm, (table) => `DELETE FROM ${table} WHERE user_id = ? AND message_id = ?`);
  // A new subscriber who already has a row (in either table) keeps it.
  const addRow = realm.stmt(
    `INSERT OR IGNORE INTO user_messages (user_id, message_id, flags)
     SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM user_messages_recent WHERE user_id = ? AND message_id = ?)`,
  );
  for (const id of ids) {
    for (const userId of losingRows) deleteRow(userId, id);
    for (const userId of newSubscribers) addRow.run(userId, id, FLAG_BIT.read, userId, id);
  }
  for (const stream of [plan.stream, plan.newStream]) {
    realm.stmt('UPDATE streams SET first_message_id = ? WHERE id = ?').run(firstStreamMessageId(realm, stream.recipient_id), stream.id);
  }
  if (lostAccessUserIds.length > 0) {
    tx.publish(
      {
        type: 'delete_message',
        message_type: 'stream',
        message_ids: [...ids],
        stream_id: plan.stream.id,
        topic: plan.target.topic,
      },
      lostAccessUserIds,
    );
  }
  return { lostAccessUserIds };
}

function isResolved(topic: string): boolean {
  return topic.startsWith(RESOLVED_TOPIC_PREFIX);
}

// Like the public API, any run of check marks and spaces in front counts as the prefix.
function withoutResolvedPrefix(topic: string): string {
  return topic.replace(/^[\u2714 ]+/u, '');
}

function topicLink(stream: StreamRow, topic: string): string {
  return `#**${stream.name}>${topic}**`;
}

/**
 * The notification bot's messages after a move (openapi update-message
 * `send_notification_to_*`; wording as the public API's 7.0 server has it): a notice in the
 * topic when it was marked resolved or unresolved, then to the new and the old thread.
 * A pure resolve or unresolve sends no "moved here" notice.
 */
export function sendMoveNoticesTxn(
  tx: Txn,
  actor: UserRow,
  plan: MovePlan,
  movedIds: readonly number[],
  notify: { oldThread: boolean; newThread: boolean },
): void {
  const realm = tx.realm;
  const oldTopic = plan.target.topic;
  const newTopic = plan.newTopic ?? oldTopic;
  const streamMoved = plan.newStream.id !== plan.stream.id;
  const who = silentMention(actor);
  const count = movedIds.length;

  let sentResolveNotice = false;
  if (!streamMoved && plan.newTopic !== null && isResolved(newTopic) !== isResolved(oldTopic)) {
    const state = isResolved(newTopic) ? 'resolved' : 'unresolved';
    sentResolveNotice = sendNoticeTxn(tx, { stream: plan.stream, topic: newTopic }, `${who} has marked this topic as ${state}.`) !== null;
  }

  // All the messages the user could see left the old topic: the whole topic moved.
  const onlyFor = canReadStreamHistory(realm, actor, plan.stream) ? null : actor;
  const movedAll = plan.propagateMode === 'change_all' || topicMessages(realm, plan.stream.id, oldTopic, onlyFor).length === 0;
  const newStream = streamById(realm, plan.newStream.id) ?? plan.newStream;
  const renamed = withoutResolvedPrefix(oldTopic) !== withoutResolvedPrefix(newTopic);

  if (notify.newThread && (streamMoved || !sentResolveNotice || renamed)) {
    const from = topicLink(plan.stream, oldTopic);
    const text = movedAll
      ? `This topic was moved here from ${from} by ${who}.`
      : count === 1
        ? `A message was moved here from ${from} by ${who}.`
        : `${count} messages were moved here from ${from} by ${who}.`;
    sendNoticeTxn(tx, { stream: newStream, topic: newTopic }, text);
  }
  if (notify.oldThread) {
    const to = topicLink(newStream, newTopic);
    const text = movedAll
      ? `This topic was moved to ${to} by ${who}.`
      : count === 1
        ? `A message was moved from this topic to ${to} by ${who}.`
        : `${count} messages were moved from this topic to ${to} by ${who}.`;
    sendNoticeTxn(tx, { stream: plan.stream, topic: oldTopic }, text);
  }
}
