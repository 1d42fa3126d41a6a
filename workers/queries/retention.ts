import { sqlLimit } from '../lib/sql-limit';
import type { Realm } from '../realm';
import type { MessageRow } from './messages';
import { realmRetentionDays } from './realm-settings';

const DAY_S = 24 * 60 * 60;

/**
 * Up to `limit` stream messages past their stream's retention period (SPEC Stream
 * message_retention_days: null = the realm's, -1 = forever), oldest first within a stream.
 * Each stream's read uses messages_retention (recipient_id, date_sent).
 */
export function expiredMessages(realm: Realm, nowSeconds: number, limit: number): MessageRow[] {
  const realmDays = realmRetentionDays(realm);
  const streams = realm
    .rows<{ recipient_id: number; message_retention_days: number | null }, []>('SELECT recipient_id, message_retention_days FROM streams')
    .all();
  const expired: MessageRow[] = [];
  // Each stream's read stops at the whole batch; only what fits in it is kept.
  const read = realm.rows<MessageRow, [number, number]>(
    `SELECT * FROM messages WHERE recipient_id = ? AND date_sent < ? ORDER BY date_sent, id ${sqlLimit(limit)}`,
  );
  for (const stream of streams) {
    if (expired.length >= limit) break;
    const days = stream.message_retention_days ?? realmDays;
    if (days === null || days <= 0) continue;
    const cutoff = nowSeconds - days * DAY_S;
    expired.push(...read.all(stream.recipient_id, cutoff).slice(0, limit - expired.length));
  }
  return expired;
}
