import type { Clock, TimerHandle } from '../../workers/lib/clock';

/** A clock that moves only when told to (STYLE §2.4 habit 9), for unit tests of actors. */
export class FakeClock implements Clock {
  private nextId = 1;
  readonly timers = new Map<number, { at: number; callback: () => void }>();

  constructor(private current: number) {}

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, delayMs: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { at: this.current + delayMs, callback });
    return id;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as number);
  }

  /** The due times (ms) of the armed timers. */
  armedAt(): number[] {
    return [...this.timers.values()].map((timer) => timer.at);
  }

  /** Moves to `at`, running the timers due by then in order (a timer armed meanwhile too). */
  advanceTo(at: number): void {
    for (;;) {
      const due = [...this.timers].filter(([, timer]) => timer.at <= at).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.current = Math.max(this.current, due[1].at);
      due[1].callback();
    }
    this.current = at;
  }

  /** Jumps to `at` at once, then runs the timers due by then: they all see the new time. */
  jumpTo(at: number): void {
    this.current = at;
    for (const [id, timer] of [...this.timers]) {
      if (timer.at > at) continue;
      this.timers.delete(id);
      timer.callback();
    }
  }
}
