import { MessageChannel, type Worker } from 'node:worker_threads';
import type { Logger } from '../log';
import type { AdminRequest, AdminResult } from '../wire/admin';
import { BodyRing, createBodyRing } from '../wire/body-ring';
import { decodeFromShard } from '../wire/codec';
import type {
  DurableNotice,
  PingFrame,
  RequestFrame,
  ResponseFrame,
  ServeFrame,
  ShardSettings,
  ShardStats,
  StatsRequestFrame,
  ThreadMessage,
} from '../wire/protocol';
import { LONG_POLL_ROUTE_IDS } from '../wire/routes';
import { shardIndexFor } from '../wire/shard-hash';
import { AnswerWriter } from './answer-writer';
import { PendingRequests } from './pending';
import {
  busyResponse,
  errorResponse,
  Shard,
  type ResponseHandler,
  type ShardFigures,
  type ShardGuards,
  startShardThread,
} from './shard-thread';
import { ShardWatchdog, type PingTracker } from './shard-watchdog';

const MAX_RESTART_DELAY_MS = 5_000;
const QUICK_DEATH_MS = 2_000;

// The front end writes a burst of poll answers a slice at a time (src/realm/answer-writer.ts).
const ANSWER_SLICE_MS = 5;

// The hash moved to src/wire/ so shards can use it too; re-exported for existing importers.
export { shardIndexFor };

/**
 * Owns the shard threads: forwards request frames to the realm's owner, answers in-flight
 * requests of a dead shard with 503 and restarts it (DESIGN §Crash isolation).
 */
export class ShardPool {
  private readonly shards: Shard[];
  private readonly pending: PendingRequests;
  // Round trips under way (pings, placement changes and stats requests), by their frame id
  private readonly pings = new Map<number, (stats?: ShardStats) => void>();
  /** Admin commands sent and not yet answered, by request id, with the shard that has them. */
  private readonly adminCalls = new Map<number, { shard: number; resolve: (result: AdminResult) => void }>();
  private nextId = 1;
  private readonly sweepTimer: NodeJS.Timeout;
  private readonly watchdog: ShardWatchdog | null = null;
  private readonly longPollRoutes = new Set<string>(LONG_POLL_ROUTE_IDS);
  private readonly answers = new AnswerWriter(
    (response) => this.deliver(response),
    (id) => this.pending.isLongPoll(id),
    ANSWER_SLICE_MS,
  );

  constructor(
    private settings: Omit<ShardSettings, 'shardIndex' | 'shardCount' | 'bodyRing'>,
    shardCount: number,
    private readonly requestTimeoutMs: number,
    private readonly log: Logger,
    // Past this many queued requests a shard's new requests get 503 at once: waiting behind a
    // backlog they would time out anyway, and the backlog's memory stays bounded.
    private readonly queueLimit: number,
    private readonly guards: ShardGuards = { watchdogMs: 0, heapLimitMb: 0 },
  ) {
    this.shards = Array.from({ length: shardCount }, (_, i) => new Shard(i));
    this.pending = new PendingRequests(this.shards);
    for (const shard of this.shards) this.spawn(shard);
    // One sweep a second instead of a timer per request: cheaper on the front-end thread.
    this.sweepTimer = setInterval(() => this.pending.expireOverdue(Date.now()), 1_000);
    this.sweepTimer.unref();
    if (guards.watchdogMs > 0) {
      const pings: PingTracker = {
        track: (answered) => {
          const id = this.nextId++;
          this.pings.set(id, answered);
          return id;
        },
        forget: (id) => {
          this.pings.delete(id);
        },
      };
      this.watchdog = new ShardWatchdog(this.shards, guards.watchdogMs, pings, log);
    }
  }

  get shardCount(): number {
    return this.shards.length;
  }

  newRequestId(): number {
    return this.nextId++;
  }

  /**
   * Whether a request for `realm` on `route` would be refused as the shard is now: checked
   * before a body is read, so a busy shard costs no body buffers either.
   */
  isBusy(realm: string, route: string): boolean {
    const shard = this.shards[shardIndexFor(realm, this.shards.length)] as Shard;
    return !this.longPollRoutes.has(route) && shard.queued >= this.queueLimit;
  }

  /** `attached`: the request body holding files, transferred to the shard (files). */
  send(frame: RequestFrame, respond: ResponseHandler, attached?: ArrayBuffer): void {
    const shardIndex = shardIndexFor(frame.realm, this.shards.length);
    const shard = this.shards[shardIndex] as Shard;
    if (!shard.worker || shard.closing) {
      respond(errorResponse(frame.id, 503, 'Service temporarily unavailable; try again'));
      return;
    }
    const longPoll = this.longPollRoutes.has(frame.route);
    if (!longPoll && shard.queued >= this.queueLimit) {
      respond(busyResponse(frame.id));
      return;
    }
    // A parked poll is answered within a heartbeat interval; the timeout counts from there.
    const wait = longPoll ? this.settings.durations.heartbeatIntervalMs : 0;
    this.pending.add(frame.id, shardIndex, Date.now() + wait + this.requestTimeoutMs, respond, longPoll);
    shard.post(frame, attached);
  }

  /**
   * The client disconnected: its answer goes nowhere, and its shard drops a parked poll. Other
   * work goes on in the shard, so it stays queued until answered: clients that send and go
   * away cannot pile work on a shard past the bound.
   */
  cancel(id: number): void {
    const shardIndex = this.pending.cancel(id);
    if (shardIndex === undefined) return;
    const shard = this.shards[shardIndex] as Shard;
    if (shard.worker) shard.post({ kind: 'cancel', id });
  }

  get inFlight(): number {
    return this.pending.size;
  }

  /**
   * Runs an admin command (src/admin/) in the shard that owns its realm, so the realm's
   * in-memory state and its clients' events stay right. No timeout: a restore copies a file.
   */
  admin(request: AdminRequest): Promise<AdminResult> {
    const shardIndex = shardIndexFor(request.realm, this.shards.length);
    const shard = this.shards[shardIndex] as Shard;
    if (!shard.worker || shard.closing) {
      return Promise.resolve({ ok: false, code: 'failed', message: 'the shard serving this realm is restarting; try again' });
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.adminCalls.set(id, { shard: shardIndex, resolve });
      shard.post({ kind: 'admin', id, request });
    });
  }

  /** True when every shard answers a ping within `timeoutMs`. */
  async ping(timeoutMs: number): Promise<boolean> {
    return (await this.pingEach(timeoutMs)).every(Boolean);
  }

  /**
   * Tells every shard which realms this process now serves and resolves once each has let go
   * of the others (their files closed) or `timeoutMs` passed; a shard restarted later starts
   * with the new set. Resolves false if a shard did not confirm.
   */
  async serve(realms: string[] | null, timeoutMs: number): Promise<boolean> {
    this.settings = { ...this.settings, servedRealms: realms };
    const answers = this.shards.map((shard) => {
      // A shard without a thread starts again with the new set: nothing to wait for.
      const absent = !shard.worker || shard.closing;
      return this.ask(shard, (id) => ({ kind: 'serve', id, realms }), timeoutMs).then((answer) => absent || answer !== null);
    });
    return (await Promise.all(answers)).every(Boolean);
  }

  /** For each shard, whether it answered a ping within `timeoutMs` (readiness). */
  pingEach(timeoutMs: number): Promise<boolean[]> {
    return Promise.all(
      this.shards.map((shard) => this.ask(shard, (id) => ({ kind: 'ping', id }), timeoutMs).then((answer) => answer !== null)),
    );
  }

  /** Each shard's own figures, null for a shard that did not answer within `timeoutMs`. */
  statsEach(timeoutMs: number): Promise<(ShardStats | null)[]> {
    return Promise.all(
      this.shards.map((shard) => this.ask(shard, (id) => ({ kind: 'stats', id }), timeoutMs).then((answer) => answer?.stats ?? null)),
    );
  }

  /** The front end's own figures per shard; reading them costs no round trip. */
  figures(): ShardFigures[] {
    const longPolls = this.pending.longPollsPerShard();
    return this.shards.map((shard) => {
      // The thread's own event-loop clock, read from this thread: active = not waiting for I/O.
      if (shard.worker) shard.busyMsNow = shard.worker.performance.eventLoopUtilization().active;
      return {
        index: shard.index,
        up: shard.worker !== null && !shard.closing,
        queued: shard.queued,
        longPolls: longPolls[shard.index] ?? 0,
        restarts: shard.restarts,
        busyMs: shard.busyMsBefore + shard.busyMsNow,
      };
    });
  }

  /** One round trip to a shard: its answer, or null when it has no thread or is silent past `timeoutMs`. */
  private ask(
    shard: Shard,
    frame: (id: number) => PingFrame | ServeFrame | StatsRequestFrame,
    timeoutMs: number,
  ): Promise<{ stats?: ShardStats } | null> {
    if (!shard.worker || shard.closing) return Promise.resolve(null);
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pings.delete(id);
        resolve(null);
      }, timeoutMs);
      this.pings.set(id, (stats) => {
        clearTimeout(timer);
        resolve(stats === undefined ? {} : { stats });
      });
      shard.post(frame(id));
    });
  }

  /** Asks every shard to close its databases, then waits for the threads to end. */
  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    this.watchdog?.stop();
    await Promise.all(
      this.shards.map(
        (shard) =>
          new Promise<void>((resolve) => {
            const worker = shard.worker;
            shard.closing = true;
            if (!worker) return resolve();
            shard.onClosed = resolve;
            shard.post({ kind: 'close' });
          }),
      ),
    );
  }

  private spawn(shard: Shard): void {
    const bodyRing = createBodyRing();
    // The shard's sync thread reports its durable commits here, straight to this thread.
    const durable = new MessageChannel();
    const workerData: ShardSettings = {
      ...this.settings,
      shardIndex: shard.index,
      shardCount: this.shards.length,
      bodyRing,
      durablePort: durable.port2,
    };
    const worker = startShardThread(workerData, this.guards, [durable.port2]);
    shard.attach(worker);
    durable.port1.on('message', (notice: DurableNotice) => this.onDurable(shard, worker, notice));
    durable.port1.unref();
    // Bound to this thread: a restarted shard gets a new ring.
    const ring = new BodyRing(bodyRing);
    worker.on('message', (message: ThreadMessage) => this.onMessage(shard, ring, message));
    worker.on('error', (err) => this.log.error({ err, shard: shard.index }, 'shard thread failed'));
    worker.on('exit', (code) => {
      durable.port1.close();
      this.onExit(shard, worker, code);
    });
  }

  private onDurable(shard: Shard, worker: Worker, notice: DurableNotice): void {
    if (shard.worker !== worker) return;
    if (notice.kind === 'durable') return shard.durableUpTo(notice.ticket);
    // Its held answers are failed with its other requests when it exits, and it restarts.
    this.log.error({ shard: shard.index, reason: notice.message }, 'cannot make commits durable; restarting the shard');
    void worker.terminate();
  }

  private onMessage(shard: Shard, ring: BodyRing, message: ThreadMessage): void {
    const frame = decodeFromShard(message instanceof ArrayBuffer ? message : message.frame);
    shard.heardFrom();
    switch (frame.kind) {
      case 'response':
        if (frame.binary?.slot) {
          const slot = frame.binary.slot;
          if (shard.holds(frame.durableAfter)) {
            // Held for the disk: its bytes leave the ring as a copy, so the ring does not wait.
            frame.binary.bytes = ring.view(slot).slice();
            ring.release(slot);
            shard.whenDurable(frame.durableAfter, () => this.answers.push(frame));
            return;
          }
          // Written out before deliver returns (every ResponseHandler writes at once), so the
          // bytes can be released right after.
          frame.binary.bytes = ring.view(slot);
          try {
            this.deliver(frame);
          } finally {
            ring.release(slot);
          }
          return;
        }
        // A binary answer's bytes came beside the frame.
        if (frame.binary && !(message instanceof ArrayBuffer)) frame.binary.bytes = new Uint8Array(message.attached);
        shard.whenDurable(frame.durableAfter, () => this.answers.push(frame));
        return;
      case 'responses':
        shard.whenDurable(frame.durableAfter, () => {
          for (const response of frame.frames) this.answers.push(response);
        });
        return;
      case 'pong':
      case 'serving':
        this.pings.get(frame.id)?.();
        this.pings.delete(frame.id);
        return;
      case 'admin-result':
        shard.whenDurable(frame.durableAfter, () => {
          this.adminCalls.get(frame.id)?.resolve(frame.result);
          this.adminCalls.delete(frame.id);
        });
        return;
      case 'stats':
        this.pings.get(frame.id)?.(frame.stats);
        this.pings.delete(frame.id);
        return;
      case 'closed':
        // The shard fsynced every realm as it closed them.
        shard.durableUpTo(Infinity);
        shard.onClosed?.();
        shard.onClosed = null;
        return;
    }
  }

  private deliver(response: ResponseFrame): void {
    const pending = this.pending.forget(response.id);
    if (!pending) return; // the client went away or the request timed out
    pending.respond(response);
  }

  private onExit(shard: Shard, worker: Worker, code: number): void {
    if (shard.worker !== worker) return;
    shard.attach(null);
    shard.busyMsBefore += shard.busyMsNow;
    shard.busyMsNow = 0;
    this.failPending(shard.index, 'The server restarted part of itself; try again');
    if (shard.closing) {
      shard.onClosed?.();
      shard.onClosed = null;
      return;
    }
    // Restart at once after a crash in steady state; back off when a shard keeps dying
    // young (a bad realm file or a bug at start-up) so it cannot spin the front end.
    shard.restarts++;
    const diedYoung = Date.now() - shard.spawnedAt < QUICK_DEATH_MS;
    shard.restartDelayMs = diedYoung ? Math.min(Math.max(shard.restartDelayMs * 2, 100), MAX_RESTART_DELAY_MS) : 0;
    this.log.error({ shard: shard.index, code, restartInMs: shard.restartDelayMs }, 'shard thread exited; restarting');
    const restart = (): void => {
      if (!shard.closing) this.spawn(shard);
    };
    if (shard.restartDelayMs === 0) restart();
    else setTimeout(restart, shard.restartDelayMs).unref();
  }

  private failPending(shardIndex: number, msg: string): void {
    for (const [id, call] of this.adminCalls) {
      if (call.shard !== shardIndex) continue;
      this.adminCalls.delete(id);
      call.resolve({ ok: false, code: 'failed', message: msg });
    }
    this.pending.failShard(shardIndex, msg);
  }
}
