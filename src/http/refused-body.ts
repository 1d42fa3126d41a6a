/**
 * A body refused as too large is read to its end and thrown away before the 413 goes out with
 * `Connection: close` (nginx's "lingering close"). Answering and closing while the client is
 * still sending leaves unread bytes in the kernel, which then resets the connection: the client
 * gets EPIPE/ECONNRESET instead of the answer (RFC 9112 §9.6 asks servers to avoid this).
 *
 * The answer waits for the body's end rather than going first because this uWS build cannot
 * close a connection once its answer is complete (the response handle is gone), and the wait
 * must stay bounded. Bounds (nginx's lingering_time and lingering_timeout): 64 MiB, 30 s in
 * all, 5 s without data.
 */
const LINGER_MAX_BYTES = 64 * 1024 * 1024;
const LINGER_MAX_MS = 30_000;
// Shorter than uWS's own idle timeout (8-12 s), so a client that stops sending (or never sends
// the body it announced) gets the 413 rather than a silent close.
const LINGER_IDLE_MS = 5_000;

export class RefusedBody {
  private discarded: number;
  private finished = false;
  private readonly deadline = performance.now() + LINGER_MAX_MS;
  private readonly idleTimer: NodeJS.Timeout;

  /** `answer` writes the 413 and closes; it is called once, at the body's end or at a bound. */
  constructor(
    private readonly answer: () => void,
    alreadyRead = 0,
  ) {
    this.discarded = alreadyRead;
    this.idleTimer = setTimeout(() => this.finish(), LINGER_IDLE_MS);
    this.idleTimer.unref();
  }

  /** Whether a body that announces this length is worth reading only to be thrown away. */
  static lingersFor(contentLength: number): boolean {
    return contentLength <= LINGER_MAX_BYTES;
  }

  /** Counts a chunk read and thrown away; answers at the body's end or past the byte bound. */
  discard(bytes: number, isLast: boolean): void {
    if (this.finished) return;
    this.discarded += bytes;
    if (isLast || this.discarded > LINGER_MAX_BYTES || performance.now() > this.deadline) this.finish();
    else this.idleTimer.refresh();
  }

  /** The client went away: nothing more may touch its response. */
  abort(): void {
    this.finished = true;
    clearTimeout(this.idleTimer);
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.idleTimer);
    this.answer();
  }
}
