import type { StreamRow } from '../queries/streams';
import type { UserRow } from '../queries/users';
import type { Txn } from '../realm';
import { sendNoticeTxn, silentMention } from './notifications';

// The topic the notification bot posts a stream's own changes to, in the stream itself.
export const STREAM_EVENTS_TOPIC = 'stream events';

/** The public API's names for a stream's access policy, as its notices word them. */
export function permissionPolicyName(stream: Pick<StreamRow, 'invite_only' | 'is_web_public' | 'history_public_to_subscribers'>): string {
  if (stream.is_web_public === 1) return 'Web-public';
  if (stream.invite_only === 0) return stream.history_public_to_subscribers === 1 ? 'Public' : 'Public, protected history';
  return stream.history_public_to_subscribers === 1 ? 'Private, shared history' : 'Private, protected history';
}

/**
 * The notification bot's first message in a stream just created, as the public API posts it:
 * the access policy, the creator (silently mentioned), the description quoted. It is already
 * read for the creator.
 */
export function newStreamNoticeTxn(tx: Txn, creator: UserRow, stream: StreamRow): void {
  const description = stream.description === '' ? '*No description.*' : stream.description;
  const content =
    `**${permissionPolicyName(stream)}** stream created by ${silentMention(creator)}. **Description:**\n` +
    `\`\`\`\` quote\n${description}\n\`\`\`\``;
  sendNoticeTxn(tx, { stream, topic: STREAM_EVENTS_TOPIC }, content, [creator.id]);
}
