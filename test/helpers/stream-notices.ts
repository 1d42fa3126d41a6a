import type { ApiClient } from './http';

// workers/actions/stream-notices.ts: the topic of the notification bot's notices about a stream,
// posted in the stream itself. Its first one is the new-stream notice.
export const STREAM_EVENTS_TOPIC = 'stream events';
export const NOTIFICATION_BOT_NAME = 'Notification Bot';

type Params = Record<string, string | number | boolean | object>;

/**
 * The notification bot's new-stream notice as GET /messages renders it (apply_markdown). The
 * description is given as rendered HTML; the default is the "no description" placeholder.
 */
export function newStreamNoticeHtml(
  policy: string,
  creator: { id: number; fullName: string },
  descriptionHtml = '<p><em>No description.</em></p>',
): string {
  const mention = `<span class="user-mention silent" data-user-id="${creator.id}">${creator.fullName}</span>`;
  return `<p><strong>${policy}</strong> stream created by ${mention}. <strong>Description:</strong></p>\n<blockquote>\n${descriptionHtml}\n</blockquote>`;
}

/**
 * The ID of a stream's new-stream notice: its oldest message, as `client` reads it. Throws when
 * that message is not the notification bot's in "stream events" (or `client` cannot read it).
 */
export async function newStreamNoticeId(client: ApiClient, streamId: number): Promise<number> {
  const res = await client.get('/messages', {
    anchor: 'oldest',
    num_before: 0,
    num_after: 1,
    narrow: [{ operator: 'stream', operand: streamId }],
  });
  const first = (res.body['messages'] as Record<string, unknown>[] | undefined)?.[0];
  if (first?.['sender_full_name'] !== NOTIFICATION_BOT_NAME || first['subject'] !== STREAM_EVENTS_TOPIC) {
    throw new Error(`stream ${streamId} does not start with the new-stream notice: ${res.text}`);
  }
  return first['id'] as number;
}

/**
 * Creates one stream through POST /users/me/subscriptions as `client`, with `settings` (creation
 * settings, principals) beside it, and returns its ID and the ID of its new-stream notice.
 * Throws when the stream exists already, since then there is no new notice.
 */
export async function createStream(
  client: ApiClient,
  name: string,
  settings: Params = {},
  description?: string,
): Promise<{ streamId: number; noticeId: number }> {
  const existing = await client.get('/get_stream_id', { stream: name });
  if (existing.status === 200) throw new Error(`stream ${name} exists already`);
  const subscription = description === undefined ? { name } : { name, description };
  const res = await client.post('/users/me/subscriptions', { subscriptions: [subscription], ...settings });
  if (res.status !== 200) throw new Error(`creating ${name} failed: ${res.text}`);
  const found = await client.get('/get_stream_id', { stream: name });
  if (found.status !== 200) throw new Error(`no stream ${name} after creating it: ${found.text}`);
  const streamId = found.body['stream_id'] as number;
  return { streamId, noticeId: await newStreamNoticeId(client, streamId) };
}
