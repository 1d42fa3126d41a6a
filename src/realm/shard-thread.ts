import path from 'node:path';
import { Worker, type TransferListItem } from 'node:worker_threads';
import { encodeFrame } from '../wire/codec';
import type { ResponseFrame, ThreadMessage, ToShard } from '../wire/protocol';

// What a busy shard's refusal asks clients to wait: its queue drains in well under a second.
const BUSY_RETRY_AFTER_S = 1;

/**
 * Writes the answer out before it returns: a binary body may be a view of the shard's body
 * ring, reused once the handler is done. A handler that must keep the bytes copies them.
 */
export type ResponseHandler = (response: ResponseFrame) => void;

export function errorResponse(id: number, status: number, msg: string, code?: string, headers: Record<string, string> = {}): ResponseFrame {
  const body: Record<string, string> = { result: 'error', msg };
  if (code) body['code'] = code;
  return { kind: 'response', id, status, headers, body: JSON.stringify(body) };
}

/** The answer to a request for a shard whose queue is full: try again in a moment. */
export function busyResponse(id: number): ResponseFrame {
  return errorResponse(id, 503, 'The server is busy; try again in a moment', undefined, { 'Retry-After': String(BUSY_RETRY_AFTER_S) });
}

/** What the front end itself knows of one shard, for the metrics (src/metrics/). */
export interface ShardFigures {
  index: number;
  /** A thread is running (not between a crash and its restart). */
  up: boolean;
  /** Requests waiting for the shard's answer, parked polls aside. */
  queued: number;
  /** GET /events requests waiting at the shard for news. */
  longPolls: number;
  restarts: number;
  /** Time the shard's threads spent running code, not waiting, since the server started. */
  busyMs: number;
}

/** Guards against a shard that stops answering or outgrows its memory. */
export interface ShardGuards {
  /** Silence past which a shard is terminated and restarted (0: never). */
  watchdogMs: number;
  /** The thread's old-generation heap limit in MiB (0: V8's default). */
  heapLimitMb: number;
}

/**
 * A shard's young generation (V8 keeps a third of it per semi-space): 4x V8's 48 MiB. A shard's
 * objects live as long as a request or a parked poll, and with the default most scavenges
 * copied them; at `mixed` heavy 2,000 the shard's scavenges went from 1,471 ms over 164 to 528
 * ms over 35 in a 20 s window, a realm's thread given back about 5% of a core.
 */
const SHARD_YOUNG_GENERATION_MB = 192;

const SHARD_ENTRY = path.join(__dirname, '..', '..', 'workers', 'main.js');

/** A shard thread, with its young generation and, if set, the old generation's guard. */
export function startShardThread(workerData: unknown, guards: ShardGuards, transferList: TransferListItem[] = []): Worker {
  const resourceLimits = {
    maxYoungGenerationSizeMb: SHARD_YOUNG_GENERATION_MB,
    ...(guards.heapLimitMb > 0 ? { maxOldGenerationSizeMb: guards.heapLimitMb } : {}),
  };
  return new Worker(SHARD_ENTRY, { workerData, resourceLimits, transferList });
}

/**
 * Frames to a shard in one message at most: a large batch leaves in parts, so the shard starts
 * on the first requests while the front end reads the rest.
 */
const FRAMES_PER_MESSAGE = 100;

export class Shard {
  private thread: Worker | null = null;
  /** Frames posted in this turn of the event loop, sent together (ToShardBatchFrame). */
  private outgoing: ToShard[] = [];
  /** The watchdog's unanswered ping to this thread, and when it went out. */
  watchdogPing: { id: number; sentAt: number } | null = null;
  /** Whether this thread has sent anything yet: until then it is still starting (the watchdog waits). */
  answering = false;
  spawnedAt = 0;
  restartDelayMs = 0;
  closing = false;
  onClosed: (() => void) | null = null;
  /** Requests sent and not yet answered, parked polls aside. */
  queued = 0;
  /** Times the thread ended other than by a graceful stop (and was restarted). */
  restarts = 0;
  /** Busy milliseconds of this shard's earlier threads, and the current thread's last reading. */
  busyMsBefore = 0;
  busyMsNow = 0;

  /** The last of the shard's commits its sync thread reported on disk (src/wire/protocol.ts DurableAfter). */
  private durable = 0;
  /** Answers sent after a commit not yet on disk, in the order they came. */
  private held: { after: number; deliver: () => void }[] = [];

  constructor(readonly index: number) {}

  /**
   * Delivers an answer the shard sent after its commit `after`, once that commit is on disk.
   * Commits are numbered in order and each answer carries the latest, so an answer held keeps
   * every later one behind it, and none overtakes another.
   */
  whenDurable(after: number | undefined, deliver: () => void): void {
    if (after === undefined || (after <= this.durable && this.held.length === 0)) return deliver();
    this.held.push({ after, deliver });
  }

  /** Whether an answer sent after commit `after` would be held now. */
  holds(after: number | undefined): boolean {
    return after !== undefined && (after > this.durable || this.held.length > 0);
  }

  /** The sync thread made every commit up to `ticket` durable; `Infinity`: the shard closed its files. */
  durableUpTo(ticket: number): void {
    if (ticket > this.durable) this.durable = ticket;
    let released = 0;
    while (released < this.held.length && (this.held[released] as { after: number }).after <= this.durable) released++;
    if (released === 0) return;
    const ready = this.held.splice(0, released);
    for (const answer of ready) answer.deliver();
  }

  /** The thread sent something: it has finished starting (src/realm/shard-watchdog.ts). */
  heardFrom(): void {
    if (this.answering) return;
    this.answering = true;
    // A watchdog ping sent while it loaded is timed from now on.
    if (this.watchdogPing) this.watchdogPing.sentAt = Date.now();
  }

  get worker(): Worker | null {
    return this.thread;
  }

  /** A new thread, or none: frames meant for the one before go with it (its requests were failed). */
  attach(thread: Worker | null): void {
    this.thread = thread;
    if (thread) {
      this.watchdogPing = null;
      this.answering = false;
      this.spawnedAt = Date.now();
    }
    this.outgoing = [];
    // A dead thread's held answers are dropped: their requests are failed with the rest.
    this.held = [];
    this.durable = 0;
  }

  /**
   * Sends a frame to the thread. Frames of one turn of the front end's event loop leave in one
   * message after it (setImmediate): each message wakes the shard's thread, and posting one
   * per request was 9 µs of a request's front-end time at `mixed` realistic 5,000, where an
   * all-hands message brings 5,000 polls back at once. A body with files leaves at once, after
   * the frames before it.
   */
  post(frame: ToShard, attached?: ArrayBuffer): void {
    if (!this.thread) return;
    if (attached) {
      this.flush();
      const bytes = encodeFrame(frame);
      const message: ThreadMessage = { frame: bytes, attached };
      this.thread.postMessage(message, [bytes, attached]);
      return;
    }
    this.outgoing.push(frame);
    if (this.outgoing.length === 1) setImmediate(this.flush);
    else if (this.outgoing.length >= FRAMES_PER_MESSAGE) this.flush();
  }

  private readonly flush = (): void => {
    const frames = this.outgoing;
    if (frames.length === 0 || !this.thread) return;
    this.outgoing = [];
    const bytes = encodeFrame(frames.length === 1 ? (frames[0] as ToShard) : { kind: 'batch', frames });
    this.thread.postMessage(bytes, [bytes]);
  };
}
