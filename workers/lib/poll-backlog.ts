/**
 * New long polls, handled a slice per turn of the shard's loop, after every other request that
 * arrived with them. When an all-hands message wakes thousands of polls, their clients poll
 * again at once, and the front end's frames carry thousands of GET /events in a row; handled as
 * they came, a send or a mark-read behind them (and the fsync that answers it) waited for all
 * of them. A poll waits anyway: one handled a few turns later only parks later, and the events
 * it acknowledges or finds are in its queue either way.
 */
export class PollBacklog<T> {
  private readonly waiting = new Map<number, T>();
  private scheduled = false;

  constructor(
    private readonly perTurn: number,
    private readonly run: (item: T) => void,
  ) {}

  get size(): number {
    return this.waiting.size;
  }

  add(id: number, item: T): void {
    this.waiting.set(id, item);
    this.schedule();
  }

  /** The client went away before its poll was handled: nothing to answer. */
  drop(id: number): boolean {
    return this.waiting.delete(id);
  }

  /** Handles every waiting poll now (the shard is closing, and answers its parked polls next). */
  flush(): void {
    for (const [id, item] of this.waiting) {
      this.waiting.delete(id);
      this.run(item);
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.slice());
  }

  private slice(): void {
    this.scheduled = false;
    let handled = 0;
    for (const [id, item] of this.waiting) {
      if (handled++ === this.perTurn) break;
      this.waiting.delete(id);
      this.run(item);
    }
    if (this.waiting.size > 0) this.schedule();
  }
}
