import type { TypingNotice, TypingNotifier } from '../events/typing';
import type { Clock, TimerHandle } from '../lib/clock';
import type { Realm } from '../realm';
import type { Actor } from './scheduler';

// SPEC §States "Typing": receivers stop showing typing 15 s after the last `start`; a stop sent
// up to one tick late is fine, so the spec's duration is swept once a second. A shortened
// duration (tests) gets a proportionally finer tick, down to a floor that keeps a shard from
// spinning.
const MAX_TICK_MS = 1_000;
const MIN_TICK_MS = 5;
const TICKS_PER_EXPIRY = 15;

/** The sweep interval for an expiry duration. */
export function typingTickMs(expiryMs: number): number {
  return Math.min(MAX_TICK_MS, Math.max(MIN_TICK_MS, Math.ceil(expiryMs / TICKS_PER_EXPIRY)));
}

interface PendingStart {
  notice: TypingNotice;
  bucket: number;
}

/**
 * The typing actor (SPEC POST /typing; issue 7 "Typing"): publishes each notice at once and,
 * for a `start`, arms the conversation's expiry; a conversation whose `start` is not renewed
 * within the expiry gets its `stop` from here. Expiries are BUCKETED by tick: every pending
 * conversation sits in the bucket of the tick at or after its expiry, and ONE timer, armed for
 * the earliest bucket, sweeps whole buckets (never a timer per conversation).
 */
export class TypingActor implements Actor, TypingNotifier {
  private readonly pending = new Map<string, PendingStart>();
  private readonly buckets = new Map<number, Set<string>>();
  private timer: TimerHandle | null = null;
  private armedBucket: number | null = null;
  private stopped = false;
  readonly tickMs: number;

  constructor(
    // Only the realm's event bus: a unit test can hand a bare one.
    private readonly realm: Pick<Realm, 'events'>,
    private readonly clock: Clock,
    private readonly expiryMs: number,
  ) {
    this.tickMs = typingTickMs(expiryMs);
  }

  notify(notice: TypingNotice): void {
    if (this.stopped) return;
    // A new start replaces the old expiry; an explicit stop cancels it.
    this.forget(notice.conversationKey);
    this.realm.events.publish(notice.event, notice.userIds);
    if (notice.event.op === 'start') this.expireLater(notice);
  }

  /** Conversations whose `stop` is still to come; for tests. */
  get pendingCount(): number {
    return this.pending.size;
  }

  stop(): void {
    this.stopped = true;
    this.clearTimer();
    this.pending.clear();
    this.buckets.clear();
  }

  private expireLater(notice: TypingNotice): void {
    const bucket = Math.ceil((this.clock.now() + this.expiryMs) / this.tickMs);
    this.pending.set(notice.conversationKey, { notice, bucket });
    let keys = this.buckets.get(bucket);
    if (!keys) this.buckets.set(bucket, (keys = new Set()));
    keys.add(notice.conversationKey);
    if (this.armedBucket === null || bucket < this.armedBucket) this.arm(bucket);
  }

  private forget(conversationKey: string): void {
    const pending = this.pending.get(conversationKey);
    if (!pending) return;
    this.pending.delete(conversationKey);
    const keys = this.buckets.get(pending.bucket);
    keys?.delete(conversationKey);
    // An emptied bucket stays until its tick passes: the armed timer finds nothing and moves on.
  }

  private arm(bucket: number): void {
    this.clearTimer();
    this.armedBucket = bucket;
    const delayMs = Math.max(bucket * this.tickMs - this.clock.now(), 0);
    this.timer = this.clock.setTimeout(() => this.sweep(), delayMs);
  }

  /** Sends `stop` for every conversation in the buckets whose tick has come, then re-arms. */
  private sweep(): void {
    this.timer = null;
    this.armedBucket = null;
    if (this.stopped) return;
    const nowTick = Math.floor(this.clock.now() / this.tickMs);
    let next: number | null = null;
    for (const [bucket, keys] of this.buckets) {
      if (bucket > nowTick) {
        if (next === null || bucket < next) next = bucket;
        continue;
      }
      this.buckets.delete(bucket);
      for (const key of keys) {
        const pending = this.pending.get(key);
        if (!pending) continue;
        this.pending.delete(key);
        this.realm.events.publish({ ...pending.notice.event, op: 'stop' }, pending.notice.userIds);
      }
    }
    if (next !== null) this.arm(next);
  }

  private clearTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.armedBucket = null;
  }
}
