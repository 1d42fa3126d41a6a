/**
 * Tells the server this person is here: `POST /users/me/presence` once at start and then every
 * minute (the public API's web app's rhythm), `active` while they have touched the page in the
 * last five minutes and it is visible, else `idle`. Others see it in their people list.
 */

export const PRESENCE_PING_MS = 60_000;
export const IDLE_AFTER_MS = 5 * 60_000;

export interface PresenceReporterDeps {
  post: (path: string, params: Record<string, string | boolean>) => Promise<unknown>;
  setInterval: (run: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
  now: () => number;
  visible: () => boolean;
}

export class PresenceReporter {
  private lastInput: number;
  private inputSinceReport = true;
  private timer: unknown = null;

  constructor(private readonly deps: PresenceReporterDeps) {
    this.lastInput = deps.now();
  }

  start(): void {
    if (this.timer !== null) return;
    this.report();
    this.timer = this.deps.setInterval(() => this.report(), PRESENCE_PING_MS);
  }

  stop(): void {
    if (this.timer !== null) this.deps.clearInterval(this.timer);
    this.timer = null;
  }

  /** A key, click or pointer move: the person is at the page. */
  noteInput(): void {
    this.lastInput = this.deps.now();
    this.inputSinceReport = true;
  }

  status(): 'active' | 'idle' {
    return this.deps.visible() && this.deps.now() - this.lastInput < IDLE_AFTER_MS ? 'active' : 'idle';
  }

  report(): void {
    const params = { status: this.status(), new_user_input: this.inputSinceReport, ping_only: true };
    this.inputSinceReport = false;
    // A missed ping only delays the dot; the next one repairs it.
    this.deps.post('/users/me/presence', params).catch(() => undefined);
  }
}
