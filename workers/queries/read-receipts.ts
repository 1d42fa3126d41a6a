/** GET /messages/{message_id}/read_receipts (openapi get-read-receipts). */
import { errors } from '../lib/errors';
import { FLAG_BIT } from '../lib/flags';
import type { Realm } from '../realm';
import { accessMessage } from './messages';
import { realmSettings } from './realm-settings';
import { booleanSetting, type UserRow } from './users';
import { ALL_USER_MESSAGES } from './user-message-rows';

/**
 * Who has read the message: active users (bots included) with the read flag and
 * `send_read_receipts` on (default true), never the sender; the requester appears if they read it.
 * Muted users are not modelled yet, so none are excluded for muting.
 */
export function readReceipts(realm: Realm, requester: UserRow, messageId: number): number[] {
  if (!realmSettings(realm).enable_read_receipts) throw errors.readReceiptsDisabled();
  const { message } = accessMessage(realm, requester, messageId);
  const readers = realm
    .rows<UserRow, [number, number, number]>(
      `SELECT u.id, u.email, u.delivery_email, u.full_name, u.api_key, u.password_hash, u.role, u.is_active, u.is_bot,
         u.bot_type, u.bot_owner_id, u.is_billing_admin, u.timezone, u.date_joined, u.avatar_version, u.settings, u.avatar_source
       FROM ${ALL_USER_MESSAGES} um JOIN users u ON u.id = um.user_id
       WHERE um.message_id = ? AND um.flags & ? != 0 AND u.is_active = 1 AND u.id != ?
       ORDER BY u.id`,
    )
    .all(messageId, FLAG_BIT.read, message.sender_id);
  return readers.filter((user) => booleanSetting(user, 'send_read_receipts', true)).map((user) => user.id);
}
