/**
 * The tab's one event queue: register, then long-poll GET /events for as long as the page
 * lives. A lost server (network error, 5xx) is retried with backoff on the SAME queue, since
 * the server's queues survive a graceful restart, so every missed event still arrives; a queue
 * the server no longer knows (BAD_EVENT_QUEUE_ID, after a crash or a long sleep) means
 * registering again, and the app rebuilds its state from the new snapshot.
 */
import type { Params } from '../common/api';
import type { RegisterResponse, ServerEvent } from './events';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting';

/** What a failed call tells the loop: its HTTP status (0 when the server could not be reached) and code. */
export interface CallFailure {
  status: number;
  code: string;
}

export interface EventLoopApi {
  get<T>(path: string, params?: Params): Promise<T>;
  post<T>(path: string, params?: Params): Promise<T>;
}

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
}

export interface EventLoopOptions {
  api: EventLoopApi;
  timers: Timers;
  /** 0 ≤ x < 1; Math.random in the page. */
  random: () => number;
  /** A register answer: the first (`fresh`) or one after the server lost the queue. */
  onRegister: (register: RegisterResponse, kind: 'first' | 'again') => void;
  /** Events in order, heartbeats left out. */
  onEvents: (events: ServerEvent[]) => void;
  onConnection: (state: ConnectionState) => void;
  /** The session ended (401): the page goes to sign-in. */
  onSignedOut: () => void;
}

export const REGISTER_PARAMS: Params = {
  apply_markdown: true,
  client_extavatar: false,
  slim_presence: true,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: false,
    stream_typing_notifications: true,
    user_settings_object: true,
    linkifier_url_template: true,
  },
};

export const FIRST_RETRY_MS = 1000;
export const LONGEST_RETRY_MS = 30_000;

/** 1 s doubling to 30 s; each wait drawn between 75 % and 125 % so tabs do not retry in step. */
export function retryDelay(failures: number, random: number): number {
  const base = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
  return Math.round(base * (0.75 + random * 0.5));
}

function failureOf(error: unknown): CallFailure {
  if (typeof error === 'object' && error !== null && 'status' in error && 'code' in error) {
    const { status, code } = error;
    if (typeof status === 'number' && typeof code === 'string') return { status, code };
  }
  return { status: 0, code: 'NETWORK' };
}

function isTransient(failure: CallFailure): boolean {
  return failure.status === 0 || failure.status >= 500 || failure.status === 429;
}

export class EventLoop {
  private queueId = '';
  private lastEventId = -1;
  private failures = 0;
  private stopped = false;
  private state: ConnectionState = 'connecting';

  constructor(private readonly options: EventLoopOptions) {}

  get queue(): string {
    return this.queueId;
  }

  get connection(): ConnectionState {
    return this.state;
  }

  /** Registers and polls until stop(); resolves when the loop ends. */
  async run(): Promise<void> {
    let registered = false;
    while (!this.stopped) {
      if (!this.queueId) {
        const ok = await this.register(registered ? 'again' : 'first');
        if (ok) registered = true;
        continue;
      }
      await this.poll();
    }
  }

  stop(): void {
    this.stopped = true;
  }

  private setState(state: ConnectionState): void {
    if (state === this.state) return;
    this.state = state;
    this.options.onConnection(state);
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => this.options.timers.setTimeout(resolve, ms));
  }

  /** A failure that is not the queue's own: sign out, or wait and try again. */
  private async recover(failure: CallFailure): Promise<void> {
    if (failure.status === 401) {
      this.stopped = true;
      this.options.onSignedOut();
      return;
    }
    this.failures++;
    if (isTransient(failure)) this.setState('reconnecting');
    await this.wait(retryDelay(this.failures, this.options.random()));
  }

  private async register(kind: 'first' | 'again'): Promise<boolean> {
    let response: RegisterResponse;
    try {
      response = await this.options.api.post<RegisterResponse>('/register', REGISTER_PARAMS);
    } catch (error) {
      await this.recover(failureOf(error));
      return false;
    }
    if (this.stopped) return false;
    this.queueId = response.queue_id;
    this.lastEventId = response.last_event_id;
    this.options.onRegister(response, kind);
    this.setState('connected');
    return true;
  }

  private async poll(): Promise<void> {
    let events: ServerEvent[];
    try {
      const response = await this.options.api.get<{ events: ServerEvent[] }>('/events', {
        queue_id: this.queueId,
        last_event_id: this.lastEventId,
      });
      events = response.events;
    } catch (error) {
      const failure = failureOf(error);
      if (failure.code === 'BAD_EVENT_QUEUE_ID') {
        // The queue is gone: only a new registration knows the state.
        this.queueId = '';
        return;
      }
      if (failure.status >= 400 && failure.status < 500 && failure.status !== 401 && failure.status !== 429) {
        // Our place in the queue is refused: register again, but never in a tight loop.
        this.queueId = '';
      }
      await this.recover(failure);
      return;
    }
    if (this.stopped) return;
    this.failures = 0;
    this.setState('connected');
    for (const event of events) this.lastEventId = Math.max(this.lastEventId, event.id);
    const meaningful = events.filter((event) => event.type !== 'heartbeat');
    if (meaningful.length > 0) this.options.onEvents(meaningful);
  }
}
