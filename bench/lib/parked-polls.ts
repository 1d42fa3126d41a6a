import net from 'node:net';

/**
 * The client side of the long-poll scenarios: many parked GET /events at once, each on its own
 * keep-alive socket, and the time until each is answered, counted from a given moment. Raw
 * sockets and no parsing until the clock has stopped, so the client costs little of what is
 * measured (node:http's client spent ~70 µs a response).
 */
export interface PollTarget {
  url: string;
  auth: string;
  queueId: string;
  lastEventId: number;
}

export interface Answered {
  /** Milliseconds from the start mark to each answer, ascending. */
  latenciesMs: number[];
  /** The newest event id each poll received, to continue from. */
  lastEventIds: number[];
  failures: number;
}

interface Connection {
  socket: net.Socket;
  onData: ((chunk: Buffer) => void) | null;
}

const connections = new Map<PollTarget, Connection>();

function connectionFor(target: PollTarget): Connection {
  let connection = connections.get(target);
  if (connection) return connection;
  const url = new URL(target.url);
  const socket = net.connect(Number(url.port), url.hostname);
  socket.setNoDelay(true);
  const created: Connection = { socket, onData: null };
  socket.on('data', (chunk: Buffer) => created.onData?.(chunk));
  socket.on('error', () => undefined);
  connections.set(target, (connection = created));
  return connection;
}

/**
 * Opens the targets' connections a batch at a time: thousands of connects at once overflow
 * the listen backlog and the kernel retries them seconds later.
 */
export async function connectAll(targets: readonly PollTarget[], batch = 200): Promise<void> {
  for (let i = 0; i < targets.length; i += batch) {
    await Promise.all(
      targets.slice(i, i + batch).map(
        (target) =>
          new Promise<void>((resolve, reject) => {
            const socket = connectionFor(target).socket;
            if (!socket.connecting) return resolve();
            socket.once('connect', () => resolve());
            socket.once('error', reject);
          }),
      ),
    );
  }
}

interface RawAnswer {
  at: number;
  status: number;
  body: string;
}

function poll(target: PollTarget): Promise<RawAnswer> {
  const url = new URL(target.url);
  const query = new URLSearchParams({ queue_id: target.queueId, last_event_id: String(target.lastEventId) }).toString();
  const connection = connectionFor(target);
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    connection.onData = (chunk) => {
      received = Buffer.concat([received, chunk]);
      const headerEnd = received.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const head = received.subarray(0, headerEnd).toString('latin1');
      const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length < headerEnd + 4 + length) return;
      const at = performance.now();
      connection.onData = null;
      const status = Number(head.slice(9, 12));
      resolve({ at, status, body: received.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8') });
    };
    connection.socket.write(`GET ${url.pathname}?${query} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ${target.auth}\r\n\r\n`);
  });
}

// A round that takes this long lost a poll: fail the run rather than hang.
const ROUND_LIMIT_MS = 30_000;

/** Starts every poll; `answered(start)` resolves when all have been answered. */
export function parkPolls(targets: readonly PollTarget[]): { answered: (startMs: () => number) => Promise<Answered> } {
  const pending = targets.map((target) => poll(target));
  return {
    answered: async (startMs) => {
      let timer: NodeJS.Timeout | undefined;
      const lost = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`polls not answered within ${ROUND_LIMIT_MS} ms`)), ROUND_LIMIT_MS);
      });
      const results = await Promise.race([Promise.all(pending), lost]);
      clearTimeout(timer);
      const start = startMs();
      let failures = 0;
      const lastEventIds = results.map((res, i) => {
        const target = targets[i] as PollTarget;
        if (res.status !== 200) {
          failures++;
          return target.lastEventId;
        }
        const events = (JSON.parse(res.body) as { events?: { id: number }[] }).events ?? [];
        return events.reduce((max, e) => Math.max(max, e.id), target.lastEventId);
      });
      return { latenciesMs: results.map((r) => r.at - start).sort((a, b) => a - b), lastEventIds, failures };
    },
  };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

export function closeSockets(): void {
  for (const connection of connections.values()) connection.socket.destroy();
  connections.clear();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
