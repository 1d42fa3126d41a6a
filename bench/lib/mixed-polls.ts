import { monitorEventLoopDelay } from 'node:perf_hooks';
import { RawConnection } from './raw-http';

/**
 * The polling half of `mixed`'s simulated people, run on a thread of its own
 * (mixed-poll-thread.ts). In one thread, answering an all-hands message's 5,000 polls and
 * parking 5,000 new ones held the generator's loop for tens of ms, and every other answer that
 * arrived meanwhile was timed late: 5,000 people are 5,000 machines, not one loop.
 */

/** Who polls: a person's key and registered queue. */
export interface Poller {
  personId: number;
  auth: string;
  queueId: string;
  lastEventId: number;
}

export interface PollThreadData {
  port: number;
  pollers: Poller[];
  /** Each stream's members, as [stream ID, person IDs]. */
  members: [number, number[]][];
}

/** What the people's thread tells the polling thread. */
export type ToPolls =
  | { type: 'poll' }
  | { type: 'measure'; on: boolean }
  /** A message is on its way: `sentAt` in epoch ms (performance.timeOrigin + now()). */
  | { type: 'sent'; seq: number; streamId: number; sentAt: number; counted: boolean }
  | { type: 'unsent'; seq: number }
  | { type: 'collect' };

/** What the polling thread tells the people's thread. */
export type FromPolls =
  | { type: 'ready' }
  /** Messages polls brought unread: [index into `pollers`, message ID] pairs. */
  | { type: 'unread'; pairs: number[] }
  | { type: 'collected'; polls: PollFigures };

/** The polling thread's figures for the measured window. */
export interface PollFigures {
  latenciesMs: number[];
  errors: number;
  errorSamples: string[];
  deliveriesMs: number[];
  /** The same deliveries timed at the server's write of each answer (X-Test-Answered-At). */
  deliveriesAtServerMs: number[];
  /** Recipients still waiting for a message sent while measuring. */
  lost: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

interface Sent {
  sentAt: number;
  /** Recipients whose queue has not had it yet. */
  waiting: Set<number>;
  counted: boolean;
}

interface MessageEvent {
  type: string;
  id: number;
  message?: { id: number; content: string };
  flags?: string[];
}

const CONNECT_BATCH = 200;
// Unread message IDs go to the people's thread in batches: a person marks read every 10 s.
const UNREAD_FLUSH_MS = 100;

/** Epoch milliseconds, comparable between threads (each thread's performance.now() has its own origin). */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

export class PollingCrowd {
  private readonly connections: RawConnection[];
  private readonly members: Map<number, number[]>;
  private readonly sent = new Map<number, Sent>();
  /** Deliveries of a message whose `sent` notice had not arrived yet: seq → [person ID, arrived, answered (epoch ms)]. */
  private readonly early = new Map<number, [number, number, number][]>();
  private unread: number[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private polling = false;
  private measuring = false;
  private figures = PollingCrowd.emptyFigures();
  private loopDelay = monitorEventLoopDelay({ resolution: 5 });

  constructor(
    private readonly data: PollThreadData,
    private readonly tell: (message: FromPolls) => void,
  ) {
    this.connections = data.pollers.map(() => new RawConnection(data.port));
    this.members = new Map(data.members);
  }

  /** Every poll connection opened, a batch at a time. */
  async connect(): Promise<void> {
    for (let i = 0; i < this.connections.length; i += CONNECT_BATCH) {
      await Promise.all(this.connections.slice(i, i + CONNECT_BATCH).map((connection) => connection.connect()));
    }
  }

  handle(message: ToPolls): void {
    switch (message.type) {
      case 'poll':
        this.polling = true;
        this.data.pollers.forEach((_, index) => this.poll(index));
        return;
      case 'measure':
        if (message.on) {
          this.figures = PollingCrowd.emptyFigures();
          this.loopDelay = monitorEventLoopDelay({ resolution: 5 });
          this.loopDelay.enable();
        } else {
          this.loopDelay.disable();
        }
        this.measuring = message.on;
        return;
      case 'sent':
        this.noteSent(message.seq, message.streamId, message.sentAt, message.counted);
        return;
      case 'unsent':
        this.sent.delete(message.seq);
        return;
      case 'collect':
        this.tell({ type: 'collected', polls: this.collect() });
        return;
    }
  }

  close(): void {
    this.polling = false;
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    for (const connection of this.connections) connection.close();
  }

  private static emptyFigures(): PollFigures {
    return {
      latenciesMs: [],
      errors: 0,
      errorSamples: [],
      deliveriesMs: [],
      deliveriesAtServerMs: [],
      lost: 0,
      loopDelayP99Ms: NaN,
      loopDelayMaxMs: NaN,
    };
  }

  private collect(): PollFigures {
    let lost = 0;
    for (const sent of this.sent.values()) if (sent.counted) lost += sent.waiting.size;
    return {
      ...this.figures,
      lost,
      loopDelayP99Ms: this.loopDelay.percentile(99) / 1e6,
      loopDelayMaxMs: this.loopDelay.max / 1e6,
    };
  }

  private poll(index: number): void {
    if (!this.polling) return;
    const poller = this.data.pollers[index] as Poller;
    const connection = this.connections[index] as RawConnection;
    const path = `/api/v1/events?queue_id=${encodeURIComponent(poller.queueId)}&last_event_id=${poller.lastEventId}`;
    const started = performance.now();
    connection.request('GET', path, poller.auth).then(
      (answer) => {
        if (answer.status !== 200) {
          this.failed(`poll ${answer.status} ${answer.body.slice(0, 160)}`);
          return;
        }
        if (this.measuring) this.figures.latenciesMs.push(answer.at - started);
        const arrivedAt = performance.timeOrigin + answer.at;
        this.received(index, (JSON.parse(answer.body) as { events: MessageEvent[] }).events, arrivedAt, answer.answeredAt);
        this.poll(index);
      },
      () => {
        this.failed('poll: connection lost');
        setTimeout(() => this.poll(index), 1_000);
      },
    );
  }

  private failed(sample: string): void {
    if (!this.measuring) return;
    this.figures.errors++;
    if (this.figures.errorSamples.length < 5) this.figures.errorSamples.push(sample);
  }

  private received(index: number, events: MessageEvent[], arrivedAt: number, answeredAt: number): void {
    const poller = this.data.pollers[index] as Poller;
    for (const event of events) {
      poller.lastEventId = Math.max(poller.lastEventId, event.id);
      if (event.type !== 'message' || !event.message) continue;
      if (!event.flags?.includes('read')) this.noteUnread(index, event.message.id);
      const seq = Number(/mixed (\d+)/.exec(event.message.content)?.[1] ?? 0);
      if (seq === 0) continue;
      const sent = this.sent.get(seq);
      if (sent) this.delivered(seq, sent, poller.personId, arrivedAt, answeredAt);
      else this.noteEarly(seq, poller.personId, arrivedAt, answeredAt);
    }
  }

  private noteEarly(seq: number, personId: number, arrivedAt: number, answeredAt: number): void {
    let arrivals = this.early.get(seq);
    if (!arrivals) this.early.set(seq, (arrivals = []));
    arrivals.push([personId, arrivedAt, answeredAt]);
  }

  private noteSent(seq: number, streamId: number, sentAt: number, counted: boolean): void {
    const sent: Sent = { sentAt, waiting: new Set(this.members.get(streamId) ?? []), counted };
    this.sent.set(seq, sent);
    for (const [personId, arrivedAt, answeredAt] of this.early.get(seq) ?? []) this.delivered(seq, sent, personId, arrivedAt, answeredAt);
    this.early.delete(seq);
  }

  private delivered(seq: number, sent: Sent, personId: number, arrivedAt: number, answeredAt: number): void {
    if (!sent.waiting.delete(personId)) return;
    if (sent.counted) {
      this.figures.deliveriesMs.push(arrivedAt - sent.sentAt);
      if (!Number.isNaN(answeredAt)) this.figures.deliveriesAtServerMs.push(answeredAt - sent.sentAt);
    }
    if (sent.waiting.size === 0) this.sent.delete(seq);
  }

  private noteUnread(index: number, messageId: number): void {
    this.unread.push(index, messageId);
    if (this.flushTimer !== null) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      this.tell({ type: 'unread', pairs: this.unread });
      this.unread = [];
    }, UNREAD_FLUSH_MS);
  }
}
