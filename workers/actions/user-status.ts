import { errors } from '../lib/errors';
import { checkEmoji, emojiByName } from '../queries/emoji';
import { parseSettingsJson } from '../queries/realm-settings';
import { statusRow } from '../queries/user-status';
import { userSettings } from '../queries/user-settings';
import { activeUserIds, type UserRow } from '../queries/users';
import type { Realm, Txn } from '../realm';

/** SPEC §Limits: status_text length. */
export const MAX_STATUS_TEXT_LENGTH = 60;

export interface StatusRequest {
  away?: boolean | undefined;
  status_text?: string | undefined;
  emoji_name?: string | undefined;
  emoji_code?: string | undefined;
  reaction_type?: string | undefined;
}

interface CheckedStatus {
  away?: boolean;
  text?: string;
  /** Empty name, code and type: the emoji is cleared. */
  emoji?: { emoji_name: string; emoji_code: string; reaction_type: string };
}

/** SPEC POST /users/me/status: the errors, in the public API's order. */
export function checkUpdateUserStatus(realm: Realm, request: StatusRequest): CheckedStatus {
  // Characters are code points, as the public API counts them (an emoji is one).
  if (request.status_text !== undefined && [...request.status_text].length > MAX_STATUS_TEXT_LENGTH) {
    throw errors.stringTooLong('status_text', MAX_STATUS_TEXT_LENGTH);
  }
  const text = request.status_text?.trim();
  if (request.away === undefined && text === undefined && request.emoji_name === undefined) throw errors.noNewStatusValues();
  const checked: CheckedStatus = {};
  if (request.away !== undefined) checked.away = request.away;
  if (text !== undefined) checked.text = text;
  if (request.emoji_name === '') {
    checked.emoji = { emoji_name: '', emoji_code: '', reaction_type: '' };
  } else if (request.emoji_name !== undefined) {
    const name = request.emoji_name;
    // A bare name means what it means in this realm now (api-notes Summary 16).
    const byName = request.emoji_code === undefined || request.reaction_type === undefined ? emojiByName(realm, name) : null;
    const code = request.emoji_code ?? byName?.emoji_code ?? '';
    const type = request.reaction_type ?? byName?.reaction_type ?? '';
    checkEmoji(realm, name, code, type);
    checked.emoji = { emoji_name: name, emoji_code: code, reaction_type: type };
  } else if (request.emoji_code !== undefined || request.reaction_type !== undefined) {
    throw errors.emojiNameRequiredForStatus();
  }
  return checked;
}

/** Stores the passed values, mirrors `away` into `presence_enabled`, and announces both. */
export function doUpdateUserStatus(realm: Realm, user: UserRow, request: StatusRequest): Promise<void> {
  const checked = checkUpdateUserStatus(realm, request);
  return realm.transact((tx) => {
    const now = Math.floor(tx.realm.clock.now() / 1000);
    if (checked.text !== undefined || checked.emoji !== undefined) {
      const old = statusRow(tx.realm, user.id);
      const emoji = checked.emoji ?? old ?? { emoji_name: '', emoji_code: '', reaction_type: '' };
      tx.realm
        .stmt(
          `INSERT INTO user_status (user_id, status_text, emoji_name, emoji_code, reaction_type, timestamp) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (user_id) DO UPDATE SET status_text = excluded.status_text, emoji_name = excluded.emoji_name,
             emoji_code = excluded.emoji_code, reaction_type = excluded.reaction_type, timestamp = excluded.timestamp`,
        )
        .run(
          user.id,
          checked.text ?? old?.status_text ?? '',
          emoji.emoji_name,
          emoji.emoji_code,
          emoji.reaction_type || 'unicode_emoji',
          now,
        );
    }
    if (checked.away !== undefined) setPresenceEnabledTxn(tx, user, !checked.away);
    // api-notes §d user_status: only the fields that changed; a cleared emoji is "".
    const event: { type: 'user_status'; user_id: number } & Record<string, unknown> = { type: 'user_status', user_id: user.id };
    if (checked.away !== undefined) event['away'] = checked.away;
    if (checked.text !== undefined) event['status_text'] = checked.text;
    if (checked.emoji !== undefined) Object.assign(event, checked.emoji);
    tx.publish(event, activeUserIds(tx.realm));
  });
}

/** The `user_status` event of a change of `away` alone (PATCH /settings presence_enabled). */
export function publishAwayTxn(tx: Txn, userId: number, away: boolean): void {
  tx.publish({ type: 'user_status', user_id: userId, away }, activeUserIds(tx.realm));
}

/**
 * The `presence_enabled` personal setting (SPEC PATCH /settings), changed by `away`: stored in
 * the user's settings JSON and announced to the user with `user_settings` and its legacy twin.
 */
function setPresenceEnabledTxn(tx: Txn, user: UserRow, enabled: boolean): void {
  const fresh = tx.realm.oneRow<Pick<UserRow, 'settings'>, [number]>('SELECT settings FROM users WHERE id = ?', user.id);
  if (userSettings(fresh).presence_enabled === enabled) return;
  const stored = parseSettingsJson(fresh.settings);
  stored['presence_enabled'] = enabled;
  tx.realm.stmt('UPDATE users SET settings = ? WHERE id = ?').run(JSON.stringify(stored), user.id);
  tx.publish({ type: 'user_settings', op: 'update', property: 'presence_enabled', value: enabled }, [user.id]);
  tx.publish({ type: 'update_global_notifications', user: user.email, notification_name: 'presence_enabled', setting: enabled }, [user.id]);
}
