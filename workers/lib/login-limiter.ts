import type { Clock } from './clock';

export interface LoginLimit {
  /** Failures allowed per username within the window. */
  limit: number;
  windowMs: number;
}

// Past this many tracked usernames, a failure first sweeps out the ones whose window ended,
// so guessing many usernames cannot grow the map without bound.
const SWEEP_THRESHOLD = 10_000;

/**
 * Failed logins per username, in the shard's memory (api-notes §Limits: 5 failures per 30
 * minutes per username). POST /fetch_api_key and POST /login share one per realm. After `limit`
 * failures in the window every attempt is refused, the right password too, until the oldest
 * failure leaves the window.
 */
export class FailedLoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly settings: LoginLimit,
  ) {}

  /** Milliseconds until `username` may try again; 0 when it may now. */
  retryAfterMs(username: string): number {
    const recent = this.recent(usernameKey(username));
    if (recent.length < this.settings.limit) return 0;
    const oldest = recent[recent.length - this.settings.limit] as number;
    return Math.max(1, oldest + this.settings.windowMs - this.clock.now());
  }

  recordFailure(username: string): void {
    if (this.failures.size >= SWEEP_THRESHOLD) this.sweep();
    const key = usernameKey(username);
    const recent = this.recent(key);
    recent.push(this.clock.now());
    this.failures.set(key, recent);
  }

  /** A successful login forgets the username's failures: its owner knows the password. */
  recordSuccess(username: string): void {
    this.failures.delete(usernameKey(username));
  }

  private recent(key: string): number[] {
    const since = this.clock.now() - this.settings.windowMs;
    return (this.failures.get(key) ?? []).filter((at) => at > since);
  }

  private sweep(): void {
    for (const key of [...this.failures.keys()]) {
      if (this.recent(key).length === 0) this.failures.delete(key);
    }
  }
}

// Emails match without regard to case (users.email COLLATE NOCASE), so neither does the limit.
function usernameKey(username: string): string {
  return username.trim().toLowerCase();
}
