import type { Logger } from '../log';
import type { Shard } from './shard-thread';

/** The longest a new shard thread may take to load before the watchdog counts its silence. */
const MAX_START_MS = 30_000;

/** How the watchdog's pings are numbered and their answers routed (the pool's round trips). */
export interface PingTracker {
  /** A new ping id; `answered` runs when the shard's pong for it comes. */
  track(answered: () => void): number;
  forget(id: number): void;
}

/**
 * The front end's guard against a shard stuck in a synchronous loop (SHARD_WATCHDOG_MS): one
 * realm's loop stalls every realm of its thread, so a shard whose last ping has gone unanswered
 * past the limit is terminated; its exit answers its requests with 503 and restarts it.
 */
export class ShardWatchdog {
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly shards: readonly Shard[],
    private readonly limitMs: number,
    private readonly pings: PingTracker,
    private readonly log: Logger,
  ) {
    // Pings go out a few times per period, so a stuck shard is ended within about 1.25 periods.
    this.timer = setInterval(() => this.round(), Math.max(50, Math.floor(limitMs / 4)));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private round(): void {
    const now = Date.now();
    for (const shard of this.shards) {
      const worker = shard.worker;
      if (!worker || shard.closing) continue;
      const ping = shard.watchdogPing;
      // A thread still loading its modules (it has sent nothing yet) has not stopped answering:
      // on a loaded machine that takes longer than a short watchdog period, and ending it would
      // only start the load again. Past MAX_START_MS it is treated as stuck all the same.
      const started = shard.answering || now - shard.spawnedAt > MAX_START_MS;
      if (ping && started && now - ping.sentAt > this.limitMs) {
        this.log.error({ shard: shard.index, silentMs: now - ping.sentAt }, 'shard stopped answering; terminating it');
        this.pings.forget(ping.id);
        shard.watchdogPing = null;
        void worker.terminate();
        continue;
      }
      if (ping) continue;
      const id = this.pings.track(() => {
        if (shard.watchdogPing?.id === id) shard.watchdogPing = null;
      });
      shard.watchdogPing = { id, sentAt: now };
      shard.post({ kind: 'ping', id });
    }
  }
}
