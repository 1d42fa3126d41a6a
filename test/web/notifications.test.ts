import t from 'tap';
import { alertFor, attentionCount } from '../../src/web/app/notifications';
import type { ChatSnapshot, Subscription } from '../../src/web/common/types';
import type { MessageEvent } from '../../src/web/state/events';
import type { UnreadState } from '../../src/web/state/unread';
import { message, user } from './panels-fixtures';

const SETTINGS = {
  enable_desktop_notifications: true,
  enable_sounds: true,
  enable_stream_desktop_notifications: false,
  enable_stream_audible_notifications: false,
  wildcard_mentions_notify: true,
  notification_sound: 'chime',
};

function snapshotWith(settings: Record<string, unknown>, subscription: Partial<Subscription> = {}): ChatSnapshot {
  const subscriptions = new Map([[10, { stream_id: 10, is_muted: false, ...subscription } as Subscription]]);
  return { me: user(1), userSettings: { ...SETTINGS, ...settings }, subscriptions } as unknown as ChatSnapshot;
}

function event(fields: Parameters<typeof message>[1], flags: string[] = []): MessageEvent {
  return { type: 'message', id: 1, message: message(5, { sender_id: 2, ...fields }), flags };
}

t.test('direct messages and mentions alert under the personal settings; my own messages never', async (t) => {
  const direct = event({ type: 'private', display_recipient: [] });
  t.strictSame(alertFor(direct, snapshotWith({})), { desktop: true, sound: true });
  t.strictSame(alertFor(direct, snapshotWith({ enable_desktop_notifications: false, notification_sound: 'none' })), {
    desktop: false,
    sound: false,
  });
  t.strictSame(alertFor(event({}, ['mentioned']), snapshotWith({})), { desktop: true, sound: true });
  t.strictSame(alertFor(event({}, ['wildcard_mentioned']), snapshotWith({ wildcard_mentions_notify: false })), {
    desktop: false,
    sound: false,
  });
  t.strictSame(alertFor(event({ type: 'private', sender_id: 1 }), snapshotWith({})), { desktop: false, sound: false });
});

t.test("a stream message follows the stream's own setting, else the stream-wide one; a muted stream never alerts", async (t) => {
  t.strictSame(alertFor(event({}), snapshotWith({})), { desktop: false, sound: false });
  t.strictSame(alertFor(event({}), snapshotWith({ enable_stream_desktop_notifications: true })), { desktop: true, sound: false });
  t.strictSame(alertFor(event({}), snapshotWith({}, { desktop_notifications: true, audible_notifications: true })), {
    desktop: true,
    sound: true,
  });
  t.strictSame(alertFor(event({}), snapshotWith({ enable_stream_desktop_notifications: true }, { desktop_notifications: false })), {
    desktop: false,
    sound: false,
  });
  t.strictSame(alertFor(event({}), snapshotWith({}, { is_muted: true, desktop_notifications: true })), { desktop: false, sound: false });
});

t.test('the title counts every unread message, only direct messages and mentions, or nothing', async (t) => {
  const unread: UnreadState = {
    messages: new Map([
      [1, { kind: 'stream', streamId: 10, topic: 'a' }],
      [2, { kind: 'stream', streamId: 10, topic: 'a' }],
      [3, { kind: 'dm', key: '2' }],
    ]),
    mentions: new Set([2]),
  };
  t.equal(attentionCount(unread, 1), 3);
  t.equal(attentionCount(unread, 2), 2);
  t.equal(attentionCount(unread, 3), 0);
});
