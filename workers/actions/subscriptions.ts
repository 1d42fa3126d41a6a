import { subscriptionColor } from '../lib/colors';
import { epochSeconds } from '../lib/clock';
import { ApiError, errors } from '../lib/errors';
import { ROLE } from '../lib/roles';
import { streamAudience, subscriptionObject } from '../queries/event-objects';
import { inheritedDefaults } from '../queries/subscription-properties';
import type { UserGroupRow } from '../queries/user-groups';
import { isSubscribed, storedStream, streamByName, streamObject, type StreamRow } from '../queries/streams';
import { isAdmin, userByEmail, userById, type UserRow, storedUser } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { newStreamNoticeTxn } from './stream-notices';
import { notificationsStreamTxn, sendNoticeTxn, silentMention, streamLink } from './notifications';
import { renderDescription } from './render-message';
import { checkMayCreateStream, checkMaySubscribeOthers, checkWebPublicEnabled } from './stream-permissions';

// api-notes §Summary 11.
export const MAX_STREAM_NAME_LENGTH = 60;
export const MAX_STREAM_DESCRIPTION_LENGTH = 1024;

export interface StreamSettings {
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean | undefined;
  streamPostPolicy: number;
  messageRetentionDays: number | 'realm_default' | 'unlimited' | undefined;
  canRemoveSubscribersGroupId: number | undefined;
}

export interface SubscribeRequest {
  subscriptions: { name: string; description?: string | undefined }[];
  principals: (string | number)[] | undefined;
  authorizationErrorsFatal: boolean;
  /** Have the notification bot announce new public streams (SPEC: `announce`). */
  announce: boolean;
  settings: StreamSettings;
}

export interface SubscribeResult {
  subscribed: Record<string, string[]>;
  already_subscribed: Record<string, string[]>;
  unauthorized?: string[];
}

export function checkStreamName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw errors.badRequest("Stream name can't be empty!");
  if (name.length > MAX_STREAM_NAME_LENGTH) {
    throw errors.badRequest(`Stream name too long (limit: ${MAX_STREAM_NAME_LENGTH} characters).`);
  }
  const bad = [...name].findIndex((ch) => /[\p{Cc}\p{Cs}\p{Co}\p{Cn}]/u.test(ch));
  if (bad >= 0) throw errors.badRequest(`Invalid character in stream name, at position ${bad + 1}!`);
  return name;
}

/** `name`: the parameter as the public server's capped-string check names it in the error. */
export function checkDescription(raw: string | undefined, name: string): string {
  const description = (raw ?? '').trim();
  if (description.length > MAX_STREAM_DESCRIPTION_LENGTH) throw errors.stringTooLong(name, MAX_STREAM_DESCRIPTION_LENGTH);
  return description;
}

/** `principals` as users: IDs or API emails; anything else is 403 UNAUTHORIZED_PRINCIPAL. */
function resolvePrincipals(realm: Realm, actor: UserRow, principals: (string | number)[] | undefined): UserRow[] {
  if (principals === undefined || principals.length === 0) return [actor];
  const users = new Map<number, UserRow>();
  for (const principal of principals) {
    const user = typeof principal === 'number' ? userById(realm, principal) : userByEmail(realm, principal);
    if (!user?.is_active) throw errors.unauthorizedPrincipal(principal);
    users.set(user.id, user);
  }
  return [...users.values()];
}

export function checkGroupForRemoval(realm: Realm, groupId: number): number {
  const group = realm
    .rows<Pick<UserGroupRow, 'name' | 'is_system_group'>, [number]>('SELECT name, is_system_group FROM user_groups WHERE id = ?')
    .get(groupId);
  // SPEC Stream.can_remove_subscribers_group_id: system groups only, not internet or owners.
  if (!group?.is_system_group || group.name === '@role:internet' || group.name === '@role:owners') {
    throw errors.badRequest(`Invalid user group ID: ${groupId}`);
  }
  return groupId;
}

/**
 * POST /users/me/subscriptions: creates the streams that do not exist yet (with the creation
 * settings) and subscribes the principals, all in one transaction.
 */
export function doSubscribe(realm: Realm, actor: UserRow, request: SubscribeRequest): Promise<SubscribeResult> {
  const wanted = request.subscriptions.map((s, i) => ({
    name: checkStreamName(s.name),
    description: checkDescription(s.description, `subscriptions[${i}]["description"]`),
  }));
  const principals = resolvePrincipals(realm, actor, request.principals);
  const subscribingOthers = principals.some((p) => p.id !== actor.id);
  if (subscribingOthers && actor.role === ROLE.GUEST) throw errors.badRequest('Not allowed for guest users');
  if (subscribingOthers) checkMaySubscribeOthers(realm, actor);
  const settings = request.settings;
  if (settings.isWebPublic) {
    checkWebPublicEnabled(realm);
    // A web-public stream is public and shares its history.
    if (settings.inviteOnly || settings.historyPublicToSubscribers === false) throw errors.badRequest('Invalid parameters');
  }
  if (settings.messageRetentionDays !== undefined && actor.role !== ROLE.OWNER) {
    throw new ApiError('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
  }
  if (settings.canRemoveSubscribersGroupId !== undefined) checkGroupForRemoval(realm, settings.canRemoveSubscribersGroupId);

  return realm.transact((tx) => {
    const authorized: StreamRow[] = [];
    const created: StreamRow[] = [];
    const unauthorized: string[] = [];
    const seen = new Set<number>();
    for (const { name, description } of wanted) {
      let stream = streamByName(realm, name);
      if (!stream) {
        if (actor.role === ROLE.GUEST) throw errors.badRequest('Insufficient permission');
        checkMayCreateStream(realm, actor, settings);
        stream = createStreamTxn(
          tx,
          name,
          description,
          settings,
          principals.map((user) => user.id),
        );
        created.push(stream);
      } else if (stream.invite_only && !isAdmin(actor) && !isSubscribed(realm, actor.id, stream.id)) {
        unauthorized.push(stream.name);
        continue;
      } else if (actor.role === ROLE.GUEST && !isSubscribed(realm, actor.id, stream.id)) {
        unauthorized.push(stream.name);
        continue;
      }
      if (!seen.has(stream.id)) authorized.push(stream);
      seen.add(stream.id);
    }
    if (unauthorized.length > 0 && request.authorizationErrorsFatal) {
      // SPEC §Errors 4: this error has no code.
      throw new ApiError(`Unable to access stream (${unauthorized[0]}).`, null);
    }
    const result: SubscribeResult = { subscribed: {}, already_subscribed: {} };
    for (const user of principals) {
      const added = subscribeUsersTxn(
        tx,
        [user.id],
        authorized.map((s) => s.id),
      );
      const newlySubscribed = authorized.filter((stream) => added.has(`${user.id}:${stream.id}`));
      for (const stream of authorized) {
        const bucket = newlySubscribed.includes(stream) ? result.subscribed : result.already_subscribed;
        (bucket[user.email] ??= []).push(stream.name);
      }
      // A stream created by this request introduces itself with its notice instead.
      const toTell = newlySubscribed.filter((stream) => !created.includes(stream));
      if (user.id !== actor.id && !user.is_bot && toTell.length > 0) tellSubscribedTxn(tx, actor, user, toTell);
    }
    const announced = created.filter((stream) => !stream.invite_only);
    if (request.announce && announced.length > 0) announceStreamsTxn(tx, actor, announced);
    for (const stream of created) newStreamNoticeTxn(tx, actor, stream);
    if (!request.authorizationErrorsFatal) result.unauthorized = unauthorized;
    return result;
  });
}

function createStreamTxn(tx: Txn, name: string, description: string, settings: StreamSettings, subscribingIds: number[]): StreamRow {
  const now = epochSeconds(tx.realm.clock);
  const recipientId = Number(tx.realm.stmt('INSERT INTO recipients (kind) VALUES (2)').run().lastInsertRowid);
  // Public streams always share history with subscribers; private ones only when asked.
  const historyPublic = settings.inviteOnly ? (settings.historyPublicToSubscribers ?? false) : true;
  const retention =
    settings.messageRetentionDays === undefined || settings.messageRetentionDays === 'realm_default'
      ? null
      : settings.messageRetentionDays === 'unlimited'
        ? -1
        : settings.messageRetentionDays;
  const removalGroup =
    settings.canRemoveSubscribersGroupId ??
    tx.realm.oneRow<{ id: number }>("SELECT id FROM user_groups WHERE name = '@role:administrators' AND is_system_group = 1").id;
  const id = Number(
    tx.realm
      .stmt(
        `INSERT INTO streams (name, recipient_id, description, rendered_description, date_created, invite_only,
           is_web_public, stream_post_policy, message_retention_days, history_public_to_subscribers,
           can_remove_subscribers_group_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        name,
        recipientId,
        description,
        renderDescription(tx.realm, description),
        now,
        settings.inviteOnly ? 1 : 0,
        settings.isWebPublic ? 1 : 0,
        settings.streamPostPolicy,
        retention,
        historyPublic ? 1 : 0,
        removalGroup,
      ).lastInsertRowid,
  );
  const stream = storedStream(tx.realm, id);
  // api-notes §d stream create: to whoever can see the stream, including those about to be
  // subscribed (private streams: they and the administrators).
  const audience = new Set([...streamAudience(tx.realm, stream), ...subscribingIds]);
  tx.publish({ type: 'stream', op: 'create', streams: [streamObject(stream)] }, [...audience]);
  return stream;
}

/**
 * Subscribes each user to each stream, re-activating old subscriptions; returns the
 * `user:stream` pairs that were newly subscribed.
 */
export function subscribeUsersTxn(tx: Txn, userIds: readonly number[], streamIds: readonly number[]): Set<string> {
  const added = new Set<string>();
  const existing = tx.realm.rows<{ active: number }, [number, number]>(
    'SELECT active FROM subscriptions WHERE user_id = ? AND stream_id = ?',
  );
  const insert = tx.realm.stmt('INSERT INTO subscriptions (user_id, stream_id, color) VALUES (?, ?, ?)');
  const reactivate = tx.realm.stmt('UPDATE subscriptions SET active = 1 WHERE user_id = ? AND stream_id = ?');
  for (const userId of userIds) {
    for (const streamId of streamIds) {
      const row = existing.get(userId, streamId);
      if (row?.active === 1) continue;
      if (row) reactivate.run(userId, streamId);
      else
        insert.run(
          userId,
          streamId,
          subscriptionColor(
            tx.realm.oneRow<{ n: number }, [number]>('SELECT count(*) AS n FROM subscriptions WHERE user_id = ?', userId).n,
          ),
        );
      added.add(`${userId}:${streamId}`);
    }
  }
  for (const streamId of streamIds) {
    const newUsers = userIds.filter((u) => added.has(`${u}:${streamId}`));
    if (newUsers.length === 0) continue;
    const stream = storedStream(tx.realm, streamId);
    // api-notes §d subscription add: the whole subscription, to the subscribed user only.
    for (const userId of newUsers) {
      const subscriber = storedUser(tx.realm, userId);
      tx.publish(
        {
          type: 'subscription',
          op: 'add',
          subscriptions: [subscriptionObject(tx.realm, userId, stream)],
          // For queues without notification_settings_null (events/shape.ts).
          inherited_settings: inheritedDefaults(subscriber),
        },
        [userId],
      );
    }
    // peer_add: to the other users who can see the stream's subscribers.
    const newSet = new Set(newUsers);
    const peers = streamAudience(tx.realm, stream).filter((userId) => !newSet.has(userId));
    if (peers.length > 0) tx.publish({ type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: newUsers }, peers);
  }
  return added;
}

/** A user subscribed by someone else hears it from the notification bot. */
function tellSubscribedTxn(tx: Txn, actor: UserRow, user: UserRow, streams: StreamRow[]): void {
  const [first] = streams;
  const content =
    first && streams.length === 1
      ? `${silentMention(actor)} subscribed you to the stream ${streamLink(first)}.`
      : `${silentMention(actor)} subscribed you to the following streams:\n\n${streams.map((s) => `* ${streamLink(s)}`).join('\n')}`;
  sendNoticeTxn(tx, { user }, content);
}

// The topic new-stream announcements go to.
const NEW_STREAMS_TOPIC = 'new streams';

function announceStreamsTxn(tx: Txn, actor: UserRow, streams: StreamRow[]): void {
  const stream = notificationsStreamTxn(tx);
  if (!stream) return;
  const [first] = streams;
  const content =
    first && streams.length === 1
      ? `${silentMention(actor)} created a new stream ${streamLink(first)}.`
      : `${silentMention(actor)} created the following streams: ${streams.map(streamLink).join(', ')}.`;
  // Like every notice about the actor's own action, already read for them.
  sendNoticeTxn(tx, { stream, topic: NEW_STREAMS_TOPIC }, content, [actor.id]);
}
