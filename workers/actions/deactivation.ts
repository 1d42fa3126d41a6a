import { publishPersonAddedTxn } from './people-events';
import { errors } from '../lib/errors';
import { ROLE } from '../lib/roles';
import { activeUserNamed, botAdministratorIds, botsOwnedBy, hasOtherActiveAccount, subscribedStreamIds } from '../queries/accounts';
import { botObject } from '../queries/bots';
import { streamAudience } from '../queries/event-objects';
import { streamById } from '../queries/streams';
import { activeUserIds, isAdmin, type UserRow, storedUser } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { checkTargetUser, isLastOwner } from './user-roles';
import { endSessionsTxn } from './sessions';

/*
 * Deactivation and reactivation as the public API (7.0) does them: the account stays, with its
 * subscriptions; subscriber lists stop showing it (queries/streams subscriberIds reads active
 * users only), clients drop it from theirs on realm_user remove, and its owned bots go with it.
 */

/** One account off, inside the caller's transaction; the queues go after commit (see callers). */
function deactivateOneTxn(tx: Txn, user: UserRow): void {
  tx.realm.stmt('UPDATE users SET is_active = 0 WHERE id = ?').run(user.id);
  // Signed out everywhere: reactivation must not bring old browser sessions back.
  endSessionsTxn(tx, user.id);
  // api-notes §d realm_user remove: to the users still active.
  tx.publish({ type: 'realm_user', op: 'remove', person: { user_id: user.id, full_name: user.full_name } }, activeUserIds(tx.realm));
  if (user.is_bot === 1) {
    tx.publish(
      { type: 'realm_bot', op: 'remove', bot: { user_id: user.id, full_name: user.full_name } },
      botAdministratorIds(tx.realm, user),
    );
  }
}

/** Deactivates a user and, for a person, their active bots; returns every account turned off. */
export function deactivateTxn(tx: Txn, user: UserRow): number[] {
  // Bots first, as the public API does, so their events name an owner who is still active.
  const bots = user.is_bot === 1 ? [] : botsOwnedBy(tx.realm, user.id, true);
  for (const bot of bots) deactivateOneTxn(tx, bot);
  deactivateOneTxn(tx, user);
  return [...bots.map((bot) => bot.id), user.id];
}

/** After commit: a deactivated account's event queues stop at once (api-notes §b BAD_EVENT_QUEUE_ID). */
export function dropQueues(realm: Realm, userIds: readonly number[]): void {
  for (const userId of userIds) realm.eventQueues.removeUser(userId);
}

/** DELETE /users/{user_id} (openapi deactivate-user): administrators; owners only by owners; not the last owner. */
export async function doDeactivateUser(realm: Realm, actor: UserRow, userId: number): Promise<void> {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
  const target = checkTargetUser(realm, userId, { allowDeactivated: false, allowBots: false });
  if (target.role === ROLE.OWNER && actor.role !== ROLE.OWNER) throw errors.mustBeOwner();
  const gone = await realm.transact((tx) => {
    const current = storedUser(tx.realm, userId);
    if (current.is_active === 0) throw errors.userIsDeactivated();
    if (isLastOwner(tx.realm, current)) throw errors.deactivateLastOwner();
    return deactivateTxn(tx, current);
  });
  dropQueues(realm, gone);
}

/** DELETE /users/me (openapi deactivate-own-user): never the last account, nor the last owner. */
export async function doDeactivateOwnUser(realm: Realm, user: UserRow): Promise<void> {
  const gone = await realm.transact((tx) => {
    const current = storedUser(tx.realm, user.id);
    if (!hasOtherActiveAccount(tx.realm, current.id)) throw errors.cannotDeactivateLastUser(false);
    if (isLastOwner(tx.realm, current)) throw errors.cannotDeactivateLastUser(true);
    return deactivateTxn(tx, current);
  });
  dropQueues(realm, gone);
}

/** Deactivates a bot inside the caller's transaction (DELETE /bots/{bot_id}). */
export function deactivateBotTxn(tx: Txn, bot: UserRow): void {
  deactivateOneTxn(tx, bot);
}

/**
 * POST /users/{user_id}/reactivate (openapi reactivate-user; administrators): realm_user add
 * to everyone, realm_bot add for a bot, and peer_add for the streams the user is still
 * subscribed to, since clients dropped them from those subscriber lists.
 */
export async function doReactivateUser(realm: Realm, actor: UserRow, userId: number): Promise<void> {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
  checkTargetUser(realm, userId, { allowDeactivated: true, allowBots: true });
  await realm.transact((tx) => {
    const current = storedUser(tx.realm, userId);
    if (current.is_active === 1) throw errors.userAlreadyActive();
    // A bot comes back only under a name no active account took meanwhile (the public API).
    if (current.is_bot === 1 && activeUserNamed(tx.realm, current.full_name)) throw errors.botNameTaken();
    reactivateTxn(tx, current);
  });
}

export function reactivateTxn(tx: Txn, user: UserRow): void {
  const realm = tx.realm;
  realm.stmt('UPDATE users SET is_active = 1 WHERE id = ?').run(user.id);
  const active = storedUser(realm, user.id);
  publishPersonAddedTxn(tx, active);
  if (active.is_bot === 1) tx.publish({ type: 'realm_bot', op: 'add', bot: botObject(realm, active) }, botAdministratorIds(realm, active));
  for (const streamId of subscribedStreamIds(realm, user.id)) {
    const stream = streamById(realm, streamId);
    if (!stream) continue;
    const peers = streamAudience(realm, stream).filter((id) => id !== user.id);
    if (peers.length > 0) tx.publish({ type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: [user.id] }, peers);
  }
}
