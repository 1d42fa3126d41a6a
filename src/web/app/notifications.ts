/**
 * Noticing new messages (DOM-free rules, then the browser calls): which messages deserve a
 * desktop notification or a sound under the person's settings (SPEC PATCH /settings), and how
 * many unread messages the tab title and icon count (desktop_icon_count_display).
 */
import type { ChatSnapshot } from '../common/types';
import type { MessageEvent } from '../state/events';
import type { UnreadState } from '../state/unread';

export interface Alert {
  desktop: boolean;
  sound: boolean;
}

const NO_ALERT: Alert = { desktop: false, sound: false };

/**
 * The public API's rules: a direct message or a mention alerts when the person's direct
 * message / mention settings allow it; a stream message when the stream's own setting says so,
 * or, when that is null, the person's stream-wide setting. My own messages never alert.
 */
export function alertFor(event: MessageEvent, snapshot: ChatSnapshot): Alert {
  const { message, flags } = event;
  if (message.sender_id === snapshot.me.user_id) return NO_ALERT;
  const settings = snapshot.userSettings;
  const on = (name: string) => settings[name] === true;
  const sounds = on('enable_sounds') && settings['notification_sound'] !== 'none';
  const mentioned = flags.includes('mentioned') || (flags.includes('wildcard_mentioned') && on('wildcard_mentions_notify'));
  if (message.type === 'private' || mentioned) {
    return { desktop: on('enable_desktop_notifications'), sound: sounds };
  }
  const subscription = message.stream_id === undefined ? undefined : snapshot.subscriptions.get(message.stream_id);
  if (!subscription || subscription.is_muted) return NO_ALERT;
  const desktop = subscription.desktop_notifications ?? on('enable_stream_desktop_notifications');
  const audible = subscription.audible_notifications ?? on('enable_stream_audible_notifications');
  return { desktop, sound: audible && settings['notification_sound'] !== 'none' };
}

/** The count the title and icon show: 1 every unread message, 2 direct messages and mentions, 3 none. */
export function attentionCount(unread: UnreadState, setting: unknown): number {
  if (setting === 3) return 0;
  if (setting !== 2) return unread.messages.size;
  let count = 0;
  for (const [id, place] of unread.messages) if (place.kind === 'dm' || unread.mentions.has(id)) count++;
  return count;
}

/** The notification's title and text: who wrote, where, and the message as plain text. */
export function notificationText(event: MessageEvent, snapshot: ChatSnapshot, text: string): { title: string; body: string } {
  const { message } = event;
  const sender = snapshot.users.get(message.sender_id)?.full_name ?? message.sender_full_name;
  const stream = message.stream_id === undefined ? undefined : snapshot.streams.get(message.stream_id)?.name;
  const title = message.type === 'private' ? sender : `${sender} (#${stream ?? ''} > ${message.subject})`;
  // Direct messages show their text only when the person allows it (pm_content_in_desktop_notifications).
  const hidden = message.type === 'private' && snapshot.userSettings['pm_content_in_desktop_notifications'] === false;
  return { title, body: hidden ? 'New direct message' : text };
}
