/**
 * The page asks for attention: the unread count in the tab's icon (a badge drawn on a canvas),
 * desktop notifications and a short sound for the messages notifications.ts picks while the
 * page is in the background, and a one-time offer to turn notifications on (the browser's
 * permission prompt only follows a click).
 */
import { useEffect, useState } from 'preact/hooks';
import type { ChatSnapshot } from '../common/types';
import type { MessageEvent } from '../state/events';
import { dmPartners, toHash } from '../state/narrow';
import { alertFor, notificationText } from './notifications';
import type { ChatStore } from './store';

const ASKED_KEY = 'notifications-asked';
const ICON_PX = 32;
const TONES: Readonly<Record<string, number>> = { chime: 880, ding: 1320, knock: 220 };

let originalIcon: string | null | undefined;

/** The tab's icon with a red badge holding `count` (the page's own icon again at 0). */
export function showIconBadge(count: number): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (originalIcon === undefined) originalIcon = link?.getAttribute('href') ?? null;
  if (count === 0) {
    if (originalIcon !== null) link?.setAttribute('href', originalIcon);
    else link?.remove();
    return;
  }
  const canvas = document.createElement('canvas');
  canvas.width = ICON_PX;
  canvas.height = ICON_PX;
  const context = canvas.getContext('2d');
  if (!context) return;
  context.fillStyle = '#2a61c9';
  context.beginPath();
  context.roundRect(0, 0, ICON_PX, ICON_PX, 7);
  context.fill();
  context.fillStyle = '#d93025';
  context.beginPath();
  context.arc(ICON_PX - 11, 11, 11, 0, 2 * Math.PI);
  context.fill();
  context.fillStyle = '#ffffff';
  context.font = 'bold 14px sans-serif';
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.fillText(count > 99 ? '99' : String(count), ICON_PX - 11, 12);
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.append(link);
  }
  link.type = 'image/png';
  link.href = canvas.toDataURL('image/png');
}

/** A short tone in the person's notification_sound (no sound file to fetch). */
function playTone(sound: unknown): void {
  const frequency = TONES[String(sound)] ?? TONES['chime'];
  if (typeof AudioContext === 'undefined' || frequency === undefined) return;
  const audio = new AudioContext();
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(0.15, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.addEventListener('ended', () => void audio.close());
  oscillator.start();
  oscillator.stop(audio.currentTime + 0.35);
}

function plainText(html: string): string {
  // DOMParser builds an inert document: nothing in it loads or runs.
  return (new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '').trim();
}

/** Notifies and sounds for new messages while the page is not being looked at. */
export function useMessageAlerts(store: ChatStore): void {
  useEffect(
    () =>
      store.onMessage((event) => {
        const snapshot = store.current.snapshot;
        if (!snapshot || (document.hasFocus() && document.visibilityState === 'visible')) return;
        const alert = alertFor(event, snapshot);
        if (alert.sound) playTone(snapshot.userSettings['notification_sound']);
        if (!alert.desktop || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
        const { title, body } = notificationText(event, snapshot, plainText(event.message.content));
        const notification = new Notification(title, { body, tag: String(event.message.id) });
        notification.addEventListener('click', () => {
          window.focus();
          location.hash = conversationHash(event.message, snapshot.me.user_id);
          notification.close();
        });
      }),
    [store],
  );
}

function conversationHash(message: MessageEvent['message'], myId: number): string {
  if (message.type === 'stream' && message.stream_id !== undefined)
    return toHash({ kind: 'topic', streamId: message.stream_id, topic: message.subject });
  const people = Array.isArray(message.display_recipient) ? message.display_recipient : [];
  return toHash({ kind: 'dm', userIds: dmPartners(people, myId) });
}

/** Offers, once, to turn desktop notifications on; either answer is remembered in this browser. */
export function NotificationOffer({ snapshot }: { snapshot: ChatSnapshot }) {
  const [asked, setAsked] = useState(() => localStorage.getItem(ASKED_KEY) !== null);
  const wanted = snapshot.userSettings['enable_desktop_notifications'] === true;
  if (asked || !wanted || typeof Notification === 'undefined' || Notification.permission !== 'default') return null;
  const answer = (ask: boolean) => {
    localStorage.setItem(ASKED_KEY, ask ? 'asked' : 'declined');
    setAsked(true);
    if (ask) void Notification.requestPermission();
  };
  return (
    <div class="notification-offer" role="region" aria-label="Desktop notifications">
      <span>Get a desktop notification for direct messages, mentions and the streams you choose?</span>
      <button type="button" onClick={() => answer(true)}>
        Turn on desktop notifications
      </button>
      <button type="button" onClick={() => answer(false)}>
        Not now
      </button>
    </div>
  );
}
