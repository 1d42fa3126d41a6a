/**
 * Typing notifications, both ways (SPEC §Limits, typing periods). Receiving: who is typing in
 * which conversation, an entry expiring 15 s after its last `start`. Sending: `start` when
 * typing begins and again every 10 s while it goes on, `stop` after 5 s idle, on send, or when
 * the person turns to another conversation.
 */
import type { TypingEvent } from './events';
import { dmKey, dmPartners, sameTopic, type Narrow } from './narrow';

export const TYPING_EXPIRY_MS = 15_000;
export const TYPING_REPEAT_MS = 10_000;
export const TYPING_IDLE_MS = 5_000;

export type TypingPlace = { kind: 'stream'; streamId: number; topic: string } | { kind: 'dm'; key: string };

export interface Typist {
  userId: number;
  place: TypingPlace;
  expiresAt: number;
}

/** Everyone typing somewhere now, oldest start first. */
export type TypingState = readonly Typist[];

function samePlace(a: TypingPlace, b: TypingPlace): boolean {
  if (a.kind === 'stream' && b.kind === 'stream') return a.streamId === b.streamId && sameTopic(a.topic, b.topic);
  return a.kind === 'dm' && b.kind === 'dm' && a.key === b.key;
}

function placeOf(event: TypingEvent, myId: number): TypingPlace | null {
  if (event.message_type === 'stream') {
    return event.stream_id === undefined || event.topic === undefined
      ? null
      : { kind: 'stream', streamId: event.stream_id, topic: event.topic };
  }
  const recipients = (event.recipients ?? []).map((recipient) => ({ id: recipient.user_id, email: '', full_name: '' }));
  return { kind: 'dm', key: dmKey(dmPartners(recipients, myId)) };
}

export function applyTypingEvent(state: TypingState, event: TypingEvent, now: number, myId: number): TypingState {
  const place = placeOf(event, myId);
  const userId = event.sender.user_id;
  if (!place || userId === myId) return state;
  const others = state.filter((typist) => typist.expiresAt > now && !(typist.userId === userId && samePlace(typist.place, place)));
  return event.op === 'start' ? [...others, { userId, place, expiresAt: now + TYPING_EXPIRY_MS }] : others;
}

function inNarrow(place: TypingPlace, narrow: Narrow): boolean {
  switch (narrow.kind) {
    case 'all':
      return true;
    case 'stream':
      return place.kind === 'stream' && place.streamId === narrow.streamId;
    case 'topic':
      return place.kind === 'stream' && place.streamId === narrow.streamId && sameTopic(place.topic, narrow.topic);
    case 'dm':
      return place.kind === 'dm' && place.key === dmKey(narrow.userIds);
    default:
      return false;
  }
}

/** Who is typing in a conversation the view includes, each once. */
export function typistsIn(state: TypingState, narrow: Narrow, now: number): number[] {
  return [...new Set(state.filter((typist) => typist.expiresAt > now && inNarrow(typist.place, narrow)).map((typist) => typist.userId))];
}

/** When the next entry expires (for a timer to re-render), or null. */
export function nextExpiry(state: TypingState, now: number): number | null {
  const upcoming = state.map((typist) => typist.expiresAt).filter((at) => at > now);
  return upcoming.length > 0 ? Math.min(...upcoming) : null;
}

/** "Ann is typing…", "Ann and Bo are typing…", "Ann, Bo and Cy are typing…". */
export function typingText(names: readonly string[]): string {
  if (names.length === 0) return '';
  if (names.length === 1) return `${names[0]} is typing…`;
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)} are typing…`;
}

export type TypingDestination = { type: 'stream'; streamId: number; topic: string } | { type: 'direct'; to: readonly number[] };

/** POST /typing's parameters (SPEC: `to` is a list, the stream's ID alone for a stream). */
export function typingParams(
  op: 'start' | 'stop',
  destination: TypingDestination,
): { op: string; type: string; to: number[]; topic?: string } {
  return destination.type === 'stream'
    ? { op, type: 'stream', to: [destination.streamId], topic: destination.topic }
    : { op, type: 'direct', to: [...destination.to] };
}

export interface TypingSenderOptions {
  send: (op: 'start' | 'stop', destination: TypingDestination) => void;
  now: () => number;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

function sameDestination(a: TypingDestination, b: TypingDestination): boolean {
  if (a.type === 'stream' && b.type === 'stream') return a.streamId === b.streamId && a.topic === b.topic;
  return a.type === 'direct' && b.type === 'direct' && a.to.join(',') === b.to.join(',');
}

export class TypingSender {
  private current: TypingDestination | null = null;
  private lastStart = 0;
  private idleTimer: unknown = null;

  constructor(private readonly options: TypingSenderOptions) {}

  /** A keystroke in the compose box for this destination. */
  typed(destination: TypingDestination): void {
    const now = this.options.now();
    if (this.current && !sameDestination(this.current, destination)) this.stop();
    if (!this.current || now - this.lastStart >= TYPING_REPEAT_MS) {
      this.current = destination;
      this.lastStart = now;
      this.options.send('start', destination);
    }
    if (this.idleTimer !== null) this.options.clearTimeout(this.idleTimer);
    this.idleTimer = this.options.setTimeout(() => this.stop(), TYPING_IDLE_MS);
  }

  /** Sent, cleared, or idle: tell the others we stopped (once). */
  stop(): void {
    if (this.idleTimer !== null) this.options.clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (!this.current) return;
    const destination = this.current;
    this.current = null;
    this.options.send('stop', destination);
  }
}
