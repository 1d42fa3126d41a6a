import { errors } from '../lib/errors';
import { epochSeconds } from '../lib/clock';
import { draftOf, type DraftObject, type DraftRow } from '../queries/drafts';
import { accessStreamById } from '../queries/stream-access';
import { userById, type UserRow } from '../queries/users';
import { userSettings } from '../queries/user-settings';
import type { Realm, Txn } from '../realm';
import { MAX_TOPIC_LENGTH, normalizeContent } from './messages';

/** A draft as the client sends it (openapi components Draft; `id` is the server's). */
export interface DraftInput {
  type: 'stream' | 'private' | '';
  to: number[];
  topic: string;
  content: string;
  timestamp?: number | undefined;
}

type DraftValues = Omit<DraftObject, 'id'>;

function checkSynchronization(actor: UserRow): void {
  // SPEC PATCH /settings enable_drafts_synchronization.
  if (!userSettings(actor).enable_drafts_synchronization) throw errors.draftsSyncDisabled();
}

/**
 * The public API's checks of one draft: content as a message's, a stream draft names exactly
 * one stream the user can see, a direct draft names existing users; the topic only for stream
 * drafts, cut at the topic limit.
 */
function checkDraft(realm: Realm, actor: UserRow, draft: DraftInput): DraftValues {
  const content = normalizeContent(draft.content);
  const timestamp = draft.timestamp === undefined ? epochSeconds(realm.clock) : Math.floor(draft.timestamp);
  if (timestamp < 0) throw errors.badRequest('Timestamp must not be negative.');
  let topic = '';
  let to: number[] = [];
  if (draft.type === 'stream') {
    if (draft.topic.includes('\0')) throw errors.badRequest('Topic must not contain null bytes');
    topic = draft.topic.length <= MAX_TOPIC_LENGTH ? draft.topic : draft.topic.slice(0, MAX_TOPIC_LENGTH - 3) + '...';
    if (draft.to.length !== 1) throw errors.badRequest('Must specify exactly 1 stream ID for stream messages');
    to = [accessStreamById(realm, actor, draft.to[0] as number).id];
  } else if (draft.type === 'private') {
    to = [...new Set(draft.to)].sort((a, b) => a - b);
    for (const id of to) {
      const user = userById(realm, id);
      if (!user?.is_active) throw errors.invalidUserId(id);
    }
  }
  return { type: draft.type, to, topic, content, timestamp };
}

function insertDraft(tx: Txn, userId: number, values: DraftValues): DraftObject {
  const id = Number(
    tx.realm
      .stmt('INSERT INTO drafts (user_id, type, to_ids, topic, content, last_edit_time) VALUES (?, ?, ?, ?, ?, ?)')
      .run(userId, values.type, JSON.stringify(values.to), values.topic, values.content, values.timestamp).lastInsertRowid,
  );
  return { id, ...values };
}

/** POST /drafts: all or none; event `drafts` `add` to the user (api-notes §d). */
export function doCreateDrafts(realm: Realm, actor: UserRow, drafts: DraftInput[]): Promise<number[]> {
  checkSynchronization(actor);
  const checked = drafts.map((draft) => checkDraft(realm, actor, draft));
  return realm.transact((tx) => {
    const created = checked.map((values) => insertDraft(tx, actor.id, values));
    tx.publish({ type: 'drafts', op: 'add', drafts: created }, [actor.id]);
    return created.map((draft) => draft.id);
  });
}

function accessDraft(realm: Realm, actor: UserRow, draftId: number): DraftRow {
  const row = draftOf(realm, actor.id, draftId);
  if (!row) throw errors.draftDoesNotExist();
  return row;
}

/** PATCH /drafts/{draft_id}: replaces the draft; event `drafts` `update`. */
export function doEditDraft(realm: Realm, actor: UserRow, draftId: number, draft: DraftInput): Promise<void> {
  checkSynchronization(actor);
  accessDraft(realm, actor, draftId);
  const values = checkDraft(realm, actor, draft);
  return realm.transact((tx) => {
    tx.realm
      .stmt('UPDATE drafts SET type = ?, to_ids = ?, topic = ?, content = ?, last_edit_time = ? WHERE id = ? AND user_id = ?')
      .run(values.type, JSON.stringify(values.to), values.topic, values.content, values.timestamp, draftId, actor.id);
    tx.publish({ type: 'drafts', op: 'update', draft: { id: draftId, ...values } }, [actor.id]);
  });
}

/** DELETE /drafts/{draft_id}: event `drafts` `remove`. */
export function doDeleteDraft(realm: Realm, actor: UserRow, draftId: number): Promise<void> {
  checkSynchronization(actor);
  accessDraft(realm, actor, draftId);
  return realm.transact((tx) => {
    tx.realm.stmt('DELETE FROM drafts WHERE id = ? AND user_id = ?').run(draftId, actor.id);
    tx.publish({ type: 'drafts', op: 'remove', draft_id: draftId }, [actor.id]);
  });
}

/**
 * Deletes every stored draft of the user, for PATCH /settings turning
 * enable_drafts_synchronization off (SPEC: no event is sent for them).
 */
export function deleteAllDraftsTxn(tx: Txn, userId: number): void {
  tx.realm.stmt('DELETE FROM drafts WHERE user_id = ?').run(userId);
}
