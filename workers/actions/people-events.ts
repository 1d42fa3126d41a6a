import { personObject } from '../queries/event-objects';
import { AVATAR_FOR_HIDDEN_EMAIL } from '../events/shape';
import { activeViewers, canSeeDeliveryEmail, emailAudiences } from '../queries/people';
import { avatarUrl, hasUploadedAvatar, type UserRow } from '../queries/users';
import type { Txn } from '../realm';

/*
 * realm_user events (api-notes §d). One published payload cannot carry a per-recipient
 * `delivery_email` (SPEC User.delivery_email), so each goes to its audiences separately.
 */

/** realm_user add: the person with the real email to those who may see it, null to the rest. */
export function publishPersonAddedTxn(tx: Txn, user: UserRow): void {
  for (const audience of Object.values(emailAudiences(tx.realm, user))) {
    const first = audience[0];
    // Every viewer of one audience gets the same object, so any of them stands for it.
    if (first)
      tx.publish(
        { type: 'realm_user', op: 'add', person: personObject(tx.realm, first, user) },
        audience.map((v) => v.id),
      );
  }
}

/**
 * After `before` became `after` (real email or visibility): `delivery_email` to each active user
 * whose view of it changed — the new address to those who see it, null to those who lost it
 * (api-notes §d realm_user update `{delivery_email}`).
 */
export function publishDeliveryEmailChangesTxn(tx: Txn, before: UserRow, after: UserRow): void {
  const viewers = activeViewers(tx.realm);
  const gained: number[] = [];
  const lost: number[] = [];
  const emailChanged = before.delivery_email !== after.delivery_email;
  for (const viewer of viewers) {
    const saw = canSeeDeliveryEmail(viewer, before);
    const sees = canSeeDeliveryEmail(viewer, after);
    if (sees && (!saw || emailChanged)) gained.push(viewer.id);
    else if (saw && !sees) lost.push(viewer.id);
  }
  if (gained.length > 0) {
    tx.publish({ type: 'realm_user', op: 'update', person: { user_id: after.id, delivery_email: after.delivery_email } }, gained);
  }
  if (lost.length > 0) tx.publish({ type: 'realm_user', op: 'update', person: { user_id: after.id, delivery_email: null } }, lost);
  publishAvatarChangesTxn(tx, after, gained, emailChanged ? viewers.filter((v) => !canSeeDeliveryEmail(v, after)).map((v) => v.id) : lost);
}

/**
 * The picture's URL follows the real email (queries/users avatarUrl), and `client_extavatar`
 * clients compute it only when they see that email (SPEC User.avatar_url): those who now see
 * it get the update to compute from, those who do not get the URL itself.
 */
function publishAvatarChangesTxn(tx: Txn, user: UserRow, seeing: readonly number[], notSeeing: readonly number[]): void {
  const url = avatarUrl(user);
  const person = {
    user_id: user.id,
    avatar_source: hasUploadedAvatar(user) ? ('U' as const) : ('G' as const),
    avatar_url: url,
    avatar_url_medium: url,
    avatar_version: user.avatar_version,
  };
  if (seeing.length > 0) tx.publish({ type: 'realm_user', op: 'update', person }, seeing);
  if (notSeeing.length > 0) tx.publish({ type: 'realm_user', op: 'update', person, [AVATAR_FOR_HIDDEN_EMAIL]: true }, notSeeing);
}

/** The API email changed: `new_email` to everyone (api-notes §d realm_user update). */
export function publishApiEmailChangeTxn(tx: Txn, after: UserRow, everyone: readonly number[]): void {
  tx.publish({ type: 'realm_user', op: 'update', person: { user_id: after.id, new_email: after.email } }, everyone);
}
