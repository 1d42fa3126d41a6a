import { randomBytes } from 'node:crypto';
import type { Db } from '../db/open';
import type { Clock, TimerHandle } from '../lib/clock';
import type { JsonText } from '../lib/json-bytes';
import type { QueuedEvent } from './outbox';
import { EventQueue, type QueueOptions, type SavedQueue } from './queue';
import { shapeForQueue, type MessageEventPayload } from './shape';
import { eventsJson } from './shared-json';

/** SPEC §Limits: how long an idle queue lives, and how long a poll waits before a heartbeat. */
export interface QueueDurations {
  eventQueueTimeoutMs: number;
  heartbeatIntervalMs: number;
}

/** What a parked poll is answered with (GET /events): its queue's events when it was woken. */
export interface PollAnswer {
  events: JsonText;
}

/**
 * A parked poll. The answer is built when the poll is woken, from the queue the waiter names,
 * so a poll holds no closure and no promise of its own beyond the one it waits on: thousands
 * are parked whenever the shard's young generation is scavenged, and what they hold is copied.
 */
interface Waiter {
  queue: EventQueue;
  requestId: number;
  sinceMs: number;
  settle: (answer: PollAnswer) => void;
}

/**
 * Most queues one user may hold (a browser tab or an app each hold one): past it, registering
 * collects the user's least recently used queue, whose client re-registers when it next polls
 * (BAD_EVENT_QUEUE_ID), so no user can fill a shard's memory with queues. With one poll per
 * queue, this bounds the user's parked polls too.
 */
export const MAX_QUEUES_PER_USER = 100;

/**
 * Polls an event wakes are answered this many at a time, the loop free between slices: a
 * message to a 1,000-member stream otherwise builds every answer in one stretch while every
 * other request of the realm waits (issue 24).
 */
export const POLLS_PER_SLICE = 200;

// One sweep serves every queue of the realm (heartbeats and collection), not a timer per poll.
const MAX_SWEEP_MS = 1_000;
const MIN_SWEEP_MS = 10;

/**
 * A realm's event queues (SPEC §Events): who has which queue, the polls parked on them, and
 * the sweep that sends heartbeats and collects idle queues. Committed events arrive through
 * `deliver`; each queue receives its own shape of them (events/shape.ts).
 */
export class EventQueues {
  private readonly queues = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, Set<EventQueue>>();
  private readonly allPublicStreams = new Set<EventQueue>();
  private readonly waiters = new Map<EventQueue, Waiter>();
  private readonly parkedRequests = new Map<number, EventQueue>();
  private readonly sweepMs: number;
  private timer: TimerHandle | null = null;
  private stopped = false;
  /** Woken polls not yet answered, oldest first (answerInSlices). */
  private readonly toAnswer: Waiter[] = [];
  private answering = false;

  constructor(
    private readonly clock: Clock,
    private readonly durations: QueueDurations,
  ) {
    const shortest = Math.min(durations.eventQueueTimeoutMs, durations.heartbeatIntervalMs);
    this.sweepMs = Math.max(MIN_SWEEP_MS, Math.min(MAX_SWEEP_MS, Math.floor(shortest / 10)));
  }

  get size(): number {
    return this.queues.size;
  }

  get parkedCount(): number {
    return this.waiters.size;
  }

  /** A new queue for `userId` (POST /register). */
  register(userId: number, options: QueueOptions): EventQueue {
    const own = this.byUser.get(userId);
    if (own !== undefined && own.size >= MAX_QUEUES_PER_USER) this.remove(this.leastRecentlyUsed(own));
    const queueId = `${Math.floor(this.clock.now() / 1000)}:${randomBytes(6).toString('hex')}`;
    const queue = new EventQueue(queueId, userId, options, this.clock.now());
    this.add(queue);
    return queue;
  }

  /** The caller's queue; another user's queue is as unknown as a collected one. */
  find(queueId: string, userId: number): EventQueue | null {
    const queue = this.queues.get(queueId);
    return queue && queue.userId === userId ? queue : null;
  }

  /** A fetch counts as activity, so a polling client keeps its queue. */
  touch(queue: EventQueue): void {
    queue.lastActivityMs = this.clock.now();
  }

  /**
   * Parks a poll until the queue has news: an event, a heartbeat, a newer poll on the same
   * queue (one poll per queue, api-notes §b), the client going away, or a server stop.
   */
  wait(queue: EventQueue, requestId: number): Promise<PollAnswer> {
    this.wake(queue);
    this.ensureSweeping();
    return new Promise<PollAnswer>((resolve) => {
      this.waiters.set(queue, { queue, requestId, sinceMs: this.clock.now(), settle: resolve });
      this.parkedRequests.set(requestId, queue);
    });
  }

  /** The client went away (the front end's `cancel` frame): its poll no longer waits. */
  cancel(requestId: number): boolean {
    const queue = this.parkedRequests.get(requestId);
    if (!queue) return false;
    this.wake(queue);
    return true;
  }

  remove(queue: EventQueue): void {
    this.wake(queue);
    this.queues.delete(queue.id);
    this.allPublicStreams.delete(queue);
    const own = this.byUser.get(queue.userId);
    own?.delete(queue);
    if (own?.size === 0) this.byUser.delete(queue.userId);
  }

  /**
   * Every queue (the realm moves to another process): parked polls are answered, and the next
   * poll on any of them gets BAD_EVENT_QUEUE_ID, so the clients register again.
   */
  removeAll(): void {
    for (const queue of [...this.queues.values()]) this.remove(queue);
  }

  /** Every queue of a user (their account was deactivated, their key rotated). */
  removeUser(userId: number): void {
    for (const queue of [...(this.byUser.get(userId) ?? [])]) this.remove(queue);
  }

  /** Committed events, in commit order: each recipient's queues get their shape of each. */
  deliver(batch: readonly QueuedEvent[]): void {
    for (const { event, userIds } of batch) {
      for (const userId of userIds) {
        const queues = this.byUser.get(userId);
        if (!queues) continue;
        for (const queue of queues) this.offer(queue, event, userId);
      }
      if (event.type === 'message' && (event as MessageEventPayload).public_stream && this.allPublicStreams.size > 0) {
        const recipients = new Set(userIds);
        for (const queue of this.allPublicStreams) {
          if (!recipients.has(queue.userId)) this.offer(queue, event, queue.userId);
        }
      }
    }
  }

  /** Answers every parked poll (a graceful stop), at once; the queues stay, to be saved. */
  releaseAll(): void {
    for (const waiter of this.toAnswer.splice(0)) answer(waiter);
    for (const queue of [...this.waiters.keys()]) this.wake(queue);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.releaseAll();
  }

  /** Writes every queue into the realm file (a graceful stop), replacing what was there. */
  save(db: Db): void {
    const insert = db.prepare('INSERT INTO saved_event_queues (queue_id, user_id, state) VALUES (?, ?, ?)');
    db.transaction(() => {
      db.prepare('DELETE FROM saved_event_queues').run();
      for (const queue of this.queues.values()) insert.run(queue.id, queue.userId, JSON.stringify(queue.save()));
    })();
  }

  /**
   * Takes back the queues a graceful stop saved, and forgets them in the file at once: after
   * a crash, clients get BAD_EVENT_QUEUE_ID and re-register (DESIGN §Crash isolation).
   */
  restore(db: Db): void {
    const rows = db.transaction(() => {
      const saved = db.prepare<[], { state: string }>('SELECT state FROM saved_event_queues').all();
      db.prepare('DELETE FROM saved_event_queues').run();
      return saved;
    })();
    for (const row of rows) this.add(EventQueue.restore(JSON.parse(row.state) as SavedQueue));
    if (rows.length > 0) this.ensureSweeping();
  }

  /** The queue to give up first: one no poll waits on, least recently active. */
  private leastRecentlyUsed(queues: ReadonlySet<EventQueue>): EventQueue {
    let chosen: EventQueue | undefined;
    for (const queue of queues) {
      if (chosen === undefined) {
        chosen = queue;
        continue;
      }
      const waiting = this.waiters.has(queue);
      const chosenWaiting = this.waiters.has(chosen);
      if (waiting !== chosenWaiting ? chosenWaiting : queue.lastActivityMs < chosen.lastActivityMs) chosen = queue;
    }
    if (chosen === undefined) throw new Error('leastRecentlyUsed of no queue');
    return chosen;
  }

  private add(queue: EventQueue): void {
    this.queues.set(queue.id, queue);
    let own = this.byUser.get(queue.userId);
    if (!own) this.byUser.set(queue.userId, (own = new Set()));
    own.add(queue);
    if (queue.options.allPublicStreams) this.allPublicStreams.add(queue);
    this.ensureSweeping();
  }

  private offer(queue: EventQueue, event: QueuedEvent['event'], userId: number): void {
    const shaped = shapeForQueue(queue, event, userId);
    if (shaped.length === 0) return;
    for (const payload of shaped) queue.push(payload);
    this.wake(queue, true);
  }

  /** Ends `queue`'s parked poll; `inSlice`: answered in turn with others an event woke. */
  private wake(queue: EventQueue, inSlice = false): void {
    const waiter = this.waiters.get(queue);
    if (!waiter) return;
    this.waiters.delete(queue);
    this.parkedRequests.delete(waiter.requestId);
    queue.lastActivityMs = this.clock.now();
    if (inSlice) this.answerInSlices(waiter);
    else answer(waiter);
  }

  /**
   * The first POLLS_PER_SLICE woken polls are answered in this turn, the rest a slice per
   * later turn. The events are in their queues already: a poll answered later only says more.
   */
  private answerInSlices(waiter: Waiter): void {
    this.toAnswer.push(waiter);
    if (this.answering) return;
    this.answering = true;
    // After the current delivery: every queue gets the event before any slice is answered.
    queueMicrotask(() => this.answerSlice());
  }

  private answerSlice(): void {
    for (const waiter of this.toAnswer.splice(0, POLLS_PER_SLICE)) answer(waiter);
    if (this.toAnswer.length > 0) setImmediate(() => this.answerSlice());
    else this.answering = false;
  }

  private ensureSweeping(): void {
    if (this.timer !== null || this.stopped) return;
    this.timer = this.clock.setTimeout(() => this.sweep(), this.sweepMs);
  }

  /** Heartbeats for polls that waited long enough; idle queues without a poll are collected. */
  private sweep(): void {
    this.timer = null;
    const now = this.clock.now();
    for (const [queue, waiter] of [...this.waiters]) {
      if (now - waiter.sinceMs < this.durations.heartbeatIntervalMs) continue;
      queue.push({ type: 'heartbeat' });
      this.wake(queue);
    }
    for (const queue of [...this.queues.values()]) {
      if (!this.waiters.has(queue) && now - queue.lastActivityMs >= this.durations.eventQueueTimeoutMs) this.remove(queue);
    }
    if (this.queues.size > 0) this.ensureSweeping();
  }
}

/** Answers a woken poll with what its queue holds now. */
function answer(waiter: Waiter): void {
  waiter.settle({ events: eventsJson(waiter.queue.queued) });
}
