import { errors } from '../lib/errors';
import { streamAudience } from '../queries/event-objects';
import { isGroupMember } from '../queries/group-membership';
import { isSubscribed, streamByName, type StreamRow } from '../queries/streams';
import { isAdmin, userByEmail, userById, type UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';

export interface UnsubscribeResult {
  removed: string[];
  not_removed: string[];
}

/** api-notes §DELETE /users/me/subscriptions: principals are active users, else 403. */
function resolveTargets(realm: Realm, actor: UserRow, principals: (string | number)[] | undefined): UserRow[] {
  if (principals === undefined || principals.length === 0) return [actor];
  const users = new Map<number, UserRow>();
  for (const principal of principals) {
    const user = typeof principal === 'number' ? userById(realm, principal) : userByEmail(realm, principal);
    if (!user?.is_active) throw errors.unauthorizedPrincipal(principal);
    users.set(user.id, user);
  }
  return [...users.values()];
}

/**
 * Removing someone else needs administration, owning the bot, or membership in the stream's
 * `can_remove_subscribers_group_id` group (api-notes §DELETE /users/me/subscriptions).
 */
function checkMayRemove(realm: Realm, actor: UserRow, target: UserRow, stream: StreamRow): void {
  if (target.id === actor.id || isAdmin(actor)) return;
  if (target.is_bot && target.bot_owner_id === actor.id) return;
  if (isGroupMember(realm, actor.id, stream.can_remove_subscribers_group_id)) return;
  throw errors.badRequest('Insufficient permission');
}

export function doUnsubscribe(
  realm: Realm,
  actor: UserRow,
  names: string[],
  principals: (string | number)[] | undefined,
): Promise<UnsubscribeResult> {
  const targets = resolveTargets(realm, actor, principals);
  const streams: StreamRow[] = [];
  for (const name of names) {
    const stream = streamByName(realm, name.trim());
    // The documented coded form (api-notes §DELETE /users/me/subscriptions).
    if (!stream) throw errors.streamNameDoesNotExist(name);
    if (!streams.some((s) => s.id === stream.id)) streams.push(stream);
  }
  for (const stream of streams) for (const target of targets) checkMayRemove(realm, actor, target, stream);

  return realm.transact((tx) => {
    const result: UnsubscribeResult = { removed: [], not_removed: [] };
    for (const stream of streams) {
      const leaving = targets.filter((user) => isSubscribed(realm, user.id, stream.id));
      for (const target of targets) (leaving.includes(target) ? result.removed : result.not_removed).push(stream.name);
      unsubscribeUsersTxn(
        tx,
        stream,
        leaving.map((user) => user.id),
      );
    }
    return result;
  });
}

/**
 * Ends the subscriptions of `userIds` to `stream`: `remove` to each of them, `peer_remove` to the
 * others who can see the stream's subscribers (api-notes §d subscription).
 */
export function unsubscribeUsersTxn(tx: Txn, stream: StreamRow, userIds: number[]): void {
  if (userIds.length === 0) return;
  // Who could see the subscribers before the removal (a private stream's leavers among them).
  const before = streamAudience(tx.realm, stream);
  const end = tx.realm.stmt('UPDATE subscriptions SET active = 0 WHERE user_id = ? AND stream_id = ?');
  for (const userId of userIds) end.run(userId, stream.id);
  tx.publish({ type: 'subscription', op: 'remove', subscriptions: [{ name: stream.name, stream_id: stream.id }] }, userIds);
  const leaving = new Set(userIds);
  const peers = before.filter((userId) => !leaving.has(userId));
  if (peers.length > 0) tx.publish({ type: 'subscription', op: 'peer_remove', stream_ids: [stream.id], user_ids: userIds }, peers);
}
