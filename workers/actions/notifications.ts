import { streamById, type StreamRow } from '../queries/streams';
import type { UserRow } from '../queries/users';
import type { Txn } from '../realm';
import { insertMessageTxn } from './messages';
import { renderMessageNow } from './render-message';

// The notification bot's messages are plain API messages from a bot; their client name says
// where they come from.
const NOTIFICATION_CLIENT = 'Internal';

export function notificationBotTxn(tx: Txn): UserRow | undefined {
  return tx.realm.rows<UserRow, []>('SELECT * FROM users WHERE is_system_bot = 1 AND is_active = 1 ORDER BY id LIMIT 1').get();
}

/** A silent mention, so a notice about someone does not notify them. */
export function silentMention(user: UserRow): string {
  return `@_**${user.full_name}|${user.id}**`;
}

export function streamLink(stream: StreamRow): string {
  return `#**${stream.name}**`;
}

export type NoticeTarget = { stream: StreamRow; topic: string } | { user: UserRow };

/** Posts a notice from the notification bot inside the current transaction. */
export function sendNoticeTxn(tx: Txn, target: NoticeTarget, content: string, readBy: readonly number[] = []): number | null {
  const bot = notificationBotTxn(tx);
  if (!bot) return null;
  const stream = 'stream' in target ? target.stream : null;
  const topic = 'stream' in target ? target.topic : '';
  return insertMessageTxn(tx, {
    sender: bot,
    stream,
    directMembers: 'user' in target ? [bot, target.user] : [],
    topic,
    content,
    rendered: renderMessageNow(tx.realm, content, topic),
    client: NOTIFICATION_CLIENT,
    queueId: null,
    localId: null,
    readBy,
  });
}

/** The realm's announcement stream, if it has one that still exists. */
export function notificationsStreamTxn(tx: Txn): StreamRow | undefined {
  const row = tx.realm.oneRow<{ id: number | null }>('SELECT notifications_stream_id AS id FROM realm WHERE id = 1');
  return row.id === null ? undefined : streamById(tx.realm, row.id);
}
