import { errors } from '../lib/errors';
import { streamAudience } from '../queries/event-objects';
import { streamById, streamObject, type StreamRow } from '../queries/streams';
import { isAdmin, type UserRow } from '../queries/users';
import type { Realm } from '../realm';
import { MAX_STREAM_NAME_LENGTH } from './subscriptions';

// The public API frees an archived stream's name by renaming it with this prefix.
const ARCHIVED_PREFIX = '!DEACTIVATED:';

/** The stream an administrator acts on: 'Invalid stream ID' for unknown or archived ones. */
export function checkAdminStream(realm: Realm, actor: UserRow, streamId: number): StreamRow {
  if (!isAdmin(actor)) throw errors.mustBeAdmin();
  const stream = streamById(realm, streamId);
  if (!stream) throw errors.invalidStreamId();
  return stream;
}

function archivedName(realm: Realm, name: string): string {
  let prefix = ARCHIVED_PREFIX;
  for (;;) {
    const candidate = (prefix + name).slice(0, MAX_STREAM_NAME_LENGTH);
    const taken = realm.stmt('SELECT 1 FROM streams WHERE name = ? COLLATE NOCASE').get(candidate) !== undefined;
    if (!taken) return candidate;
    prefix = `!${prefix}`;
  }
}

/**
 * DELETE /streams/{stream_id} (api-notes §d stream delete): `stream` `delete` to everyone who
 * could see the stream, then the stream is renamed (freeing its name), leaves the default
 * streams and its subscriptions end; clients drop the subscriptions with the stream.
 */
export function doArchiveStream(realm: Realm, actor: UserRow, streamId: number): Promise<Record<string, never>> {
  const stream = checkAdminStream(realm, actor, streamId);
  return realm.transact((tx) => {
    const audience = streamAudience(tx.realm, stream);
    tx.publish({ type: 'stream', op: 'delete', streams: [streamObject(stream)] }, audience);
    tx.realm
      .stmt('UPDATE streams SET deactivated = 1, is_default = 0, name = ? WHERE id = ?')
      .run(archivedName(tx.realm, stream.name), stream.id);
    tx.realm.stmt('UPDATE subscriptions SET active = 0 WHERE stream_id = ? AND active = 1').run(stream.id);
    return {};
  });
}
