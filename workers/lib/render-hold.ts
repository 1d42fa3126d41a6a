/**
 * A test hook, engaged only through the TEST_HOOKS=1 routes (endpoints/test-hooks): while held,
 * message renders wait before they start, so a test can change the realm between a send's
 * checks and its write, as a slow render lets another request do.
 */
export class RenderHold {
  private held = false;
  private parked: (() => void)[] = [];
  private parkedWaiters: { count: number; resolve: () => void }[] = [];

  hold(): void {
    this.held = true;
  }

  release(): void {
    this.held = false;
    const parked = this.parked;
    this.parked = [];
    for (const resume of parked) resume();
  }

  /** Null when not held (every render in production); else resolves on release. */
  wait(): Promise<void> | null {
    if (!this.held) return null;
    return new Promise((resolve) => {
      this.parked.push(resolve);
      this.wakeParkedWaiters();
    });
  }

  /** Resolves once `count` renders are waiting. */
  whenParked(count: number): Promise<void> {
    return new Promise((resolve) => {
      this.parkedWaiters.push({ count, resolve });
      this.wakeParkedWaiters();
    });
  }

  private wakeParkedWaiters(): void {
    const ready = this.parkedWaiters.filter((waiter) => this.parked.length >= waiter.count);
    this.parkedWaiters = this.parkedWaiters.filter((waiter) => this.parked.length < waiter.count);
    for (const waiter of ready) waiter.resolve();
  }
}
