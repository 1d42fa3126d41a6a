/**
 * Runs queued work in slices of a few milliseconds, in order, with the event loop free between
 * slices. Node hands over every message waiting on a port in one go, and a message to everyone
 * makes bursts of them: thousands of new polls into the shard, thousands of answers out of it.
 * Run back to back, what waits for the next turn of the loop waited for all of them (in the
 * shard the group commit and the batched answers, up to 70 ms at 5,000 people; in the front end
 * every other request, up to about 110 ms).
 */
export class SlicedQueue<Item> {
  private readonly waiting: Item[] = [];
  private next = 0;
  private sliceStart = -1;
  private continuing = false;

  constructor(
    private readonly run: (item: Item) => void,
    private readonly sliceMs: number,
    private readonly now: () => number = () => performance.now(),
    private readonly later: (continueWith: () => void) => void = (continueWith) => setImmediate(continueWith),
  ) {}

  /** Runs `item` now if this turn's slice has room and nothing waits before it, else queues it. */
  push(item: Item): void {
    if (this.waiting.length > this.next || !this.sliceHasRoom()) {
      this.waiting.push(item);
      this.continueLater();
      return;
    }
    this.run(item);
  }

  get queued(): number {
    return this.waiting.length - this.next;
  }

  private sliceHasRoom(): boolean {
    const now = this.now();
    if (this.sliceStart < 0) {
      // The first item of a turn opens its slice; the slice ends with the turn.
      this.sliceStart = now;
      this.later(() => (this.sliceStart = -1));
      return true;
    }
    return now - this.sliceStart < this.sliceMs;
  }

  private continueLater(): void {
    if (this.continuing) return;
    this.continuing = true;
    this.later(() => this.runSlice());
  }

  private runSlice(): void {
    this.continuing = false;
    const start = this.now();
    while (this.next < this.waiting.length) {
      const item = this.waiting[this.next] as Item;
      this.next++;
      this.run(item);
      if (this.now() - start >= this.sliceMs) break;
    }
    if (this.next < this.waiting.length) return this.continueLater();
    this.waiting.length = 0;
    this.next = 0;
  }
}
