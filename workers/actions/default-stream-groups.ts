import { errors } from '../lib/errors';
import { ROLE } from '../lib/roles';
import {
  defaultStreamGroupById,
  defaultStreamGroupByName,
  defaultStreamGroupObjects,
  groupStreamIds,
  nonGuestUserIds,
  type DefaultStreamGroupRow,
} from '../queries/default-streams';
import { isSubscribed, streamByName, type StreamRow } from '../queries/streams';
import { isAdmin, type UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';

/** A stream by name as the administrator may see it; private streams may not join a group (as for default streams). */
function checkGroupStream(realm: Realm, actor: UserRow, name: string): StreamRow {
  const stream = streamByName(realm, name);
  if (!stream || (stream.invite_only === 1 && !isSubscribed(realm, actor.id, stream.id)) || actor.role === ROLE.GUEST) {
    throw errors.invalidStreamName(name);
  }
  if (stream.invite_only === 1) throw errors.privateStreamCannotBeDefault();
  return stream;
}

function checkAdmin(actor: UserRow): void {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
}

function checkGroup(realm: Realm, groupId: number): DefaultStreamGroupRow {
  const group = defaultStreamGroupById(realm, groupId);
  if (!group) throw errors.defaultStreamGroupNotFound(groupId);
  return group;
}

/** Streams to add to a group: known, public, not default streams already (they reach everyone anyway). */
function checkStreamsToAdd(realm: Realm, actor: UserRow, groupName: string, names: string[]): StreamRow[] {
  return names.map((name) => {
    const stream = checkGroupStream(realm, actor, name);
    if (stream.is_default === 1) throw errors.defaultStreamInGroup(stream.name, groupName);
    return stream;
  });
}

/** Everyone but guests gets the whole new list (api-notes §d default_stream_groups). */
function publishGroups(tx: Txn): void {
  tx.publish({ type: 'default_stream_groups', default_stream_groups: defaultStreamGroupObjects(tx.realm) }, nonGuestUserIds(tx.realm));
}

/** POST /default_stream_groups/create. */
export async function doCreateDefaultStreamGroup(
  realm: Realm,
  actor: UserRow,
  name: string,
  description: string,
  streamNames: string[],
): Promise<void> {
  checkAdmin(actor);
  const groupName = name.trim();
  if (defaultStreamGroupByName(realm, groupName)) throw errors.defaultStreamGroupExists(groupName);
  const streams = checkStreamsToAdd(realm, actor, groupName, streamNames);
  await realm.transact((tx) => {
    if (defaultStreamGroupByName(tx.realm, groupName)) throw errors.defaultStreamGroupExists(groupName);
    const id = Number(
      tx.realm.stmt('INSERT INTO default_stream_groups (name, description) VALUES (?, ?)').run(groupName, description).lastInsertRowid,
    );
    const add = tx.realm.stmt('INSERT OR IGNORE INTO default_stream_group_streams (group_id, stream_id) VALUES (?, ?)');
    for (const stream of streams) add.run(id, stream.id);
    publishGroups(tx);
  });
}

/** PATCH /default_stream_groups/{group_id}: a new name and/or description. */
export async function doUpdateDefaultStreamGroup(
  realm: Realm,
  actor: UserRow,
  groupId: number,
  change: { newName: string | undefined; newDescription: string | undefined },
): Promise<void> {
  checkAdmin(actor);
  const group = checkGroup(realm, groupId);
  if (change.newName === undefined && change.newDescription === undefined) throw errors.nothingToUpdateInGroup();
  const newName = change.newName?.trim();
  if (newName !== undefined) {
    if (newName === group.name) throw errors.groupAlreadyNamed(newName);
    const other = defaultStreamGroupByName(realm, newName);
    if (other && other.id !== group.id) throw errors.defaultStreamGroupExists(newName);
  }
  await realm.transact((tx) => {
    if (newName !== undefined) tx.realm.stmt('UPDATE default_stream_groups SET name = ? WHERE id = ?').run(newName, group.id);
    if (change.newDescription !== undefined) {
      tx.realm.stmt('UPDATE default_stream_groups SET description = ? WHERE id = ?').run(change.newDescription, group.id);
    }
    publishGroups(tx);
  });
}

/** PATCH /default_stream_groups/{group_id}/streams: `op` add or remove, by stream names. */
export async function doChangeDefaultStreamGroupStreams(
  realm: Realm,
  actor: UserRow,
  groupId: number,
  op: string,
  streamNames: string[],
): Promise<void> {
  checkAdmin(actor);
  const group = checkGroup(realm, groupId);
  if (op !== 'add' && op !== 'remove') throw errors.invalidGroupStreamsOp();
  const present = new Set(groupStreamIds(realm, group.id));
  const streams =
    op === 'add'
      ? checkStreamsToAdd(realm, actor, group.name, streamNames).map((stream) => {
          if (present.has(stream.id)) throw errors.streamAlreadyInGroup(stream.name, group.name);
          return stream;
        })
      : streamNames.map((name) => {
          const stream = checkGroupStream(realm, actor, name);
          if (!present.has(stream.id)) throw errors.streamNotInGroup(stream.name, group.name);
          return stream;
        });
  await realm.transact((tx) => {
    const statement = tx.realm.stmt(
      op === 'add'
        ? 'INSERT OR IGNORE INTO default_stream_group_streams (group_id, stream_id) VALUES (?, ?)'
        : 'DELETE FROM default_stream_group_streams WHERE group_id = ? AND stream_id = ?',
    );
    for (const stream of streams) statement.run(group.id, stream.id);
    publishGroups(tx);
  });
}

/** DELETE /default_stream_groups/{group_id}. */
export async function doRemoveDefaultStreamGroup(realm: Realm, actor: UserRow, groupId: number): Promise<void> {
  checkAdmin(actor);
  const group = checkGroup(realm, groupId);
  await realm.transact((tx) => {
    tx.realm.stmt('DELETE FROM default_stream_groups WHERE id = ?').run(group.id);
    publishGroups(tx);
  });
}
