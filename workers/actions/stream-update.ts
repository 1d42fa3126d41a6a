import { ApiError, errors } from '../lib/errors';
import { ROLE } from '../lib/roles';
import { streamAudience } from '../queries/event-objects';
import { storedStream, streamObject, STREAM_POST_POLICY, type StreamRow } from '../queries/streams';
import type { UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';
import { sendNoticeTxn, silentMention } from './notifications';
import { renderDescription } from './render-message';
import { checkAdminStream } from './stream-archive';
import { permissionPolicyName, STREAM_EVENTS_TOPIC } from './stream-notices';
import { checkMayCreateStream, checkWebPublicEnabled } from './stream-permissions';
import { checkDescription, checkGroupForRemoval, checkStreamName } from './subscriptions';

export interface StreamChanges {
  description: string | undefined;
  newName: string | undefined;
  isPrivate: boolean | undefined;
  isWebPublic: boolean | undefined;
  historyPublicToSubscribers: boolean | undefined;
  streamPostPolicy: number | undefined;
  messageRetentionDays: number | 'realm_default' | 'unlimited' | undefined;
  canRemoveSubscribersGroupId: number | undefined;
  isAnnouncementOnly: boolean | undefined;
}

function invalidParameters(): ApiError {
  return errors.badRequest('Invalid parameters');
}

function storedRetention(days: number | 'realm_default' | 'unlimited'): number | null {
  return days === 'realm_default' ? null : days === 'unlimited' ? -1 : days;
}

/** Validates everything before the transaction; returns the normalized values. */
function checkChanges(realm: Realm, actor: UserRow, stream: StreamRow, changes: StreamChanges) {
  const description = changes.description === undefined ? undefined : checkDescription(changes.description, 'description');
  let newName: string | undefined;
  if (changes.newName !== undefined) {
    newName = checkStreamName(changes.newName);
    if (newName === stream.name) throw errors.badRequest('Stream already has that name!');
    const other = realm.rows<{ id: number }, [string]>('SELECT id FROM streams WHERE name = ? COLLATE NOCASE').get(newName);
    if (other && other.id !== stream.id) throw errors.badRequest(`Stream name '${newName}' is already taken.`);
  }
  // The public API keeps default streams public.
  if (changes.isPrivate === true && stream.is_default === 1) throw errors.badRequest('Default streams cannot be made private.');
  if (changes.isWebPublic === true) {
    // SPEC PATCH /streams: the same preconditions as in subscribe.
    checkWebPublicEnabled(realm);
    checkMayCreateStream(realm, actor, { inviteOnly: false, isWebPublic: true });
    if (changes.isPrivate === true || changes.historyPublicToSubscribers === false) throw invalidParameters();
  }
  const inviteOnly = changes.isPrivate ?? stream.invite_only === 1;
  // Making a stream private ends its web-public state.
  const webPublic = changes.isWebPublic ?? (stream.is_web_public === 1 && changes.isPrivate !== true);
  // SPEC PATCH /streams: history must be shared on public and web-public streams.
  if (changes.historyPublicToSubscribers === false && (!inviteOnly || webPublic)) throw invalidParameters();
  let policy = changes.streamPostPolicy;
  if (changes.isAnnouncementOnly !== undefined) {
    const fromFlag = changes.isAnnouncementOnly ? STREAM_POST_POLICY.ADMINS : STREAM_POST_POLICY.EVERYONE;
    if (policy !== undefined && policy !== fromFlag) throw invalidParameters();
    policy = fromFlag;
  }
  if (changes.messageRetentionDays !== undefined && actor.role !== ROLE.OWNER) {
    throw new ApiError('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
  }
  if (changes.canRemoveSubscribersGroupId !== undefined) checkGroupForRemoval(realm, changes.canRemoveSubscribersGroupId);
  const permissionChanged =
    changes.isPrivate !== undefined || changes.isWebPublic !== undefined || changes.historyPublicToSubscribers !== undefined;
  // Public streams always share history (SPEC Stream.history_public_to_subscribers); a public
  // stream made private protects it unless told otherwise, as a new private stream does.
  const becomingPrivate = changes.isPrivate === true && stream.invite_only === 0;
  const keptHistory = becomingPrivate ? false : stream.history_public_to_subscribers === 1;
  const historyPublic = !inviteOnly || (changes.historyPublicToSubscribers ?? keptHistory);
  return { description, newName, permissionChanged, inviteOnly, webPublic, historyPublic, policy };
}

/** PATCH /streams/{stream_id} (SPEC; api-notes §d stream update: one event per property). */
export function doUpdateStream(realm: Realm, actor: UserRow, streamId: number, changes: StreamChanges): Promise<Record<string, never>> {
  const stream = checkAdminStream(realm, actor, streamId);
  const checked = checkChanges(realm, actor, stream, changes);
  return realm.transact((tx) => {
    let current = stream;
    const reload = () => (current = storedStream(tx.realm, stream.id));
    const publishUpdate = (property: string, value: boolean | number | string | null, extra: Record<string, unknown> = {}) =>
      tx.publish(
        { type: 'stream', op: 'update', stream_id: stream.id, name: current.name, property, value, ...extra },
        streamAudience(tx.realm, current),
      );

    if (checked.permissionChanged) {
      changePermissionTxn(tx, current, checked);
      const before = permissionPolicyName(stream);
      const after = permissionPolicyName(reload());
      if (before !== after) {
        const content = `${silentMention(actor)} changed the [access permissions](/help/stream-permissions) for this stream from **${before}** to **${after}**.`;
        sendNoticeTxn(tx, { stream: current, topic: STREAM_EVENTS_TOPIC }, content);
      }
    }
    reload();
    if (checked.description !== undefined && checked.description !== current.description) {
      const rendered = renderDescription(tx.realm, checked.description);
      tx.realm
        .stmt('UPDATE streams SET description = ?, rendered_description = ? WHERE id = ?')
        .run(checked.description, rendered, stream.id);
      publishUpdate('description', checked.description, { rendered_description: rendered });
      sendNoticeTxn(
        tx,
        { stream: reload(), topic: STREAM_EVENTS_TOPIC },
        descriptionNotice(actor, stream.description, checked.description),
      );
    }
    if (checked.policy !== undefined && checked.policy !== current.stream_post_policy) {
      tx.realm.stmt('UPDATE streams SET stream_post_policy = ? WHERE id = ?').run(checked.policy, stream.id);
      publishUpdate('stream_post_policy', checked.policy);
    }
    if (changes.messageRetentionDays !== undefined) {
      const days = storedRetention(changes.messageRetentionDays);
      if (days !== current.message_retention_days) {
        tx.realm.stmt('UPDATE streams SET message_retention_days = ? WHERE id = ?').run(days, stream.id);
        publishUpdate('message_retention_days', days);
      }
    }
    const group = changes.canRemoveSubscribersGroupId;
    if (group !== undefined && group !== current.can_remove_subscribers_group_id) {
      tx.realm.stmt('UPDATE streams SET can_remove_subscribers_group_id = ? WHERE id = ?').run(group, stream.id);
      publishUpdate('can_remove_subscribers_group_id', group);
    }
    if (checked.newName !== undefined) {
      const oldName = current.name;
      // The event carries the old name (api-notes §d stream update).
      publishUpdate('name', checked.newName);
      tx.realm.stmt('UPDATE streams SET name = ? WHERE id = ?').run(checked.newName, stream.id);
      sendNoticeTxn(
        tx,
        { stream: reload(), topic: STREAM_EVENTS_TOPIC },
        `${silentMention(actor)} renamed stream **${oldName}** to **${checked.newName}**.`,
      );
    }
    return {};
  });
}

function quoted(description: string): string {
  return description === '' ? '*No description.*' : description;
}

function descriptionNotice(actor: UserRow, before: string, after: string): string {
  return (
    `${silentMention(actor)} changed the description for this stream.\n\n` +
    `* **Old description:**\n\`\`\`\` quote\n${quoted(before)}\n\`\`\`\`\n` +
    `* **New description:**\n\`\`\`\` quote\n${quoted(after)}\n\`\`\`\``
  );
}

/**
 * invite_only / is_web_public / history changes: one `invite_only` event carrying the other two
 * (api-notes §d); users who gain sight of the stream get `stream` `create`, those who lose it
 * `stream` `delete`.
 */
function changePermissionTxn(tx: Txn, stream: StreamRow, next: { inviteOnly: boolean; webPublic: boolean; historyPublic: boolean }): void {
  const before = new Set(streamAudience(tx.realm, stream));
  tx.realm
    .stmt('UPDATE streams SET invite_only = ?, is_web_public = ?, history_public_to_subscribers = ? WHERE id = ?')
    .run(next.inviteOnly ? 1 : 0, next.webPublic ? 1 : 0, next.historyPublic ? 1 : 0, stream.id);
  const updated = storedStream(tx.realm, stream.id);
  const after = streamAudience(tx.realm, updated);
  const afterSet = new Set(after);
  const losing = [...before].filter((userId) => !afterSet.has(userId));
  const gaining = after.filter((userId) => !before.has(userId));
  if (losing.length > 0) tx.publish({ type: 'stream', op: 'delete', streams: [streamObject(stream)] }, losing);
  if (gaining.length > 0) tx.publish({ type: 'stream', op: 'create', streams: [streamObject(updated)] }, gaining);
  tx.publish(
    {
      type: 'stream',
      op: 'update',
      stream_id: stream.id,
      name: stream.name,
      property: 'invite_only',
      value: next.inviteOnly,
      history_public_to_subscribers: next.historyPublic,
      is_web_public: next.webPublic,
    },
    after,
  );
}
