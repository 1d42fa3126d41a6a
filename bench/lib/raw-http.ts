import net from 'node:net';

/**
 * A keep-alive HTTP/1.1 client on a raw socket for the load generators: requests written by
 * hand, answers read by their Content-Length (uWS always sends one), one request in flight per
 * connection and the rest queued. node:http's client cost ~70 µs a response (see
 * parked-polls.ts), which a generator of thousands of people cannot spend.
 */
export class RawResponse {
  private text: string | undefined;

  constructor(
    readonly status: number,
    private readonly bytes: Buffer,
    /** performance.now() when the whole answer had arrived. */
    readonly at: number,
    /** performance.now() when the request was written: before it, it waited for its connection. */
    readonly sentAt: number,
    /** The server's X-Test-Answered-At (epoch ms when it wrote the answer; test hooks), else NaN. */
    readonly answeredAt: number,
  ) {}

  /**
   * Decoded only when read: most answers are only counted, and decoding one presences answer
   * of a 5,000-person realm (326 KiB) cost the generator 2 ms, a sixth of its core in `mixed`.
   */
  get body(): string {
    return (this.text ??= this.bytes.toString('utf8'));
  }
}

/**
 * Where every connection of a thread reads (net's `onread`): each read is copied out before the
 * next, so one buffer serves them all (module scope is per thread).
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

interface Pending {
  head: string;
  body: string;
  sentAt: number;
  resolve: (response: RawResponse) => void;
  reject: (err: Error) => void;
}

export class RawConnection {
  private socket: net.Socket | null = null;
  private readonly queue: Pending[] = [];
  /** What has arrived of the answer in flight, kept in its chunks until it is whole. */
  private received: Buffer[] = [];
  private receivedBytes = 0;
  /** The answer's whole length once its head has arrived, else -1. */
  private answerBytes = -1;
  /** Where the answer's body starts, once its head has arrived. */
  private bodyStart = 0;
  private answeredAt = NaN;

  constructor(
    private readonly port: number,
    private readonly host = '127.0.0.1',
  ) {}

  /** Requests waiting, the one in flight included. */
  get load(): number {
    return this.queue.length;
  }

  /** Connects now (a generator opens thousands in batches, not all at once). */
  connect(): Promise<void> {
    const socket = this.open();
    if (!socket.connecting) return Promise.resolve();
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('error', reject);
    });
  }

  request(method: string, path: string, auth: string, form?: Record<string, string>): Promise<RawResponse> {
    const body = form ? new URLSearchParams(form).toString() : '';
    const headers = [`${method} ${path} HTTP/1.1`, `Host: ${this.host}:${this.port}`, `Authorization: ${auth}`];
    if (form) headers.push('Content-Type: application/x-www-form-urlencoded', `Content-Length: ${Buffer.byteLength(body)}`);
    return new Promise((resolve, reject) => {
      this.queue.push({ head: headers.join('\r\n') + '\r\n\r\n', body, sentAt: 0, resolve, reject });
      if (this.queue.length === 1) this.writeNext();
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  private open(): net.Socket {
    if (this.socket && !this.socket.destroyed) return this.socket;
    // Read into the thread's one buffer, and copy out only what arrived: a 'data' event costs a
    // fresh 64 KiB buffer and the stream machinery per read.
    const callback = (bytes: number): boolean => {
      this.onData(Buffer.from(READ_BUFFER.subarray(0, bytes)));
      return true;
    };
    const socket = net.connect({ port: this.port, host: this.host, onread: { buffer: READ_BUFFER, callback } });
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    socket.on('close', () => this.onClose(socket));
    this.received = [];
    this.receivedBytes = 0;
    this.answerBytes = -1;
    return (this.socket = socket);
  }

  private writeNext(): void {
    const next = this.queue[0];
    if (!next) return;
    next.sentAt = performance.now();
    this.open().write(next.head + next.body);
  }

  private onData(chunk: Buffer): void {
    this.received.push(chunk);
    this.receivedBytes += chunk.length;
    if (this.answerBytes < 0) {
      const buffered = this.flattenReceived();
      const headerEnd = buffered.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const head = buffered.subarray(0, headerEnd).toString('latin1');
      this.bodyStart = headerEnd + 4;
      this.answerBytes = this.bodyStart + Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      this.answeredAt = Number(/x-test-answered-at:\s*([\d.]+)/i.exec(head)?.[1] ?? NaN);
    }
    // Joined once, when whole: joining on every chunk copied a large answer over and over.
    if (this.receivedBytes < this.answerBytes) return;
    const at = performance.now();
    const answer = this.flattenReceived();
    const status = Number(answer.subarray(9, 12).toString('latin1'));
    const rest = answer.subarray(this.answerBytes);
    const body = answer.subarray(this.bodyStart, this.answerBytes);
    this.received = rest.length > 0 ? [rest] : [];
    this.receivedBytes = rest.length;
    this.answerBytes = -1;
    const done = this.queue.shift();
    done?.resolve(new RawResponse(status, body, at, done.sentAt, this.answeredAt));
    this.writeNext();
  }

  private flattenReceived(): Buffer {
    if (this.received.length !== 1) this.received = [Buffer.concat(this.received, this.receivedBytes)];
    return this.received[0] as Buffer;
  }

  private onClose(socket: net.Socket): void {
    if (this.socket !== socket) return;
    this.socket = null;
    // The request in flight is lost with its connection; the rest go out on a new one.
    this.queue.shift()?.reject(new Error('connection closed'));
    if (this.queue.length > 0) this.writeNext();
  }
}

/** Connections shared by many simulated people: each request goes to the least busy one. */
export class RawPool {
  private readonly connections: RawConnection[];
  private next = 0;

  constructor(port: number, size: number) {
    this.connections = Array.from({ length: size }, () => new RawConnection(port));
  }

  /**
   * The least busy connection, searched from where the last search ended: always starting at
   * the first left the last ones idle past the server's 10 s keep-alive timeout, and a request
   * written as that close arrived was lost (8 "connection lost" errors in a heavy 2,000 run
   * whose generator stalled for 432 ms).
   */
  request(method: string, path: string, auth: string, form?: Record<string, string>): Promise<RawResponse> {
    const count = this.connections.length;
    let bestIndex = this.next;
    for (let i = 1; i < count && this.loadAt(bestIndex) > 0; i++) {
      const index = (this.next + i) % count;
      if (this.loadAt(index) < this.loadAt(bestIndex)) bestIndex = index;
    }
    this.next = (bestIndex + 1) % count;
    return (this.connections[bestIndex] as RawConnection).request(method, path, auth, form);
  }

  private loadAt(index: number): number {
    return (this.connections[index] as RawConnection).load;
  }

  close(): void {
    for (const connection of this.connections) connection.close();
  }
}
