import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { epochMs, type FromPolls, type PollFigures, type Poller, type PollThreadData, type ToPolls } from './mixed-polls';
import { RawPool, type RawResponse } from './raw-http';
import { TOPICS_PER_STREAM, type Person, type PeopleRealm } from './seed-people';

/** The request kinds of the `mixed` scenario, as its report names them. */
export const KINDS = ['register', 'poll', 'get-messages', 'mark-read', 'presence', 'typing', 'send'] as const;
export type Kind = (typeof KINDS)[number];
/** The route table's name for each kind (the server's metrics count answers by it). */
export const KIND_ROUTES: Record<Kind, string> = {
  register: 'POST /register',
  poll: 'GET /events',
  'get-messages': 'GET /messages',
  'mark-read': 'POST /messages/flags',
  presence: 'POST /users/me/presence',
  typing: 'POST /typing',
  send: 'POST /messages',
};

/** How often each simulated person does what the web page does (issue 24 §1). */
export interface Mix {
  name: string;
  sendEveryMs: number;
  readEveryMs: number;
  markReadEveryMs: number;
  presenceEveryMs: number;
}

export const MIXES: Record<string, Mix> = {
  realistic: { name: 'realistic', sendEveryMs: 600_000, readEveryMs: 30_000, markReadEveryMs: 10_000, presenceEveryMs: 60_000 },
  heavy: { name: 'heavy', sendEveryMs: 60_000, readEveryMs: 30_000, markReadEveryMs: 10_000, presenceEveryMs: 60_000 },
};

const ALL_HANDS_SHARE = 0.02;
const TYPING_BEFORE_SEND_MS = 1_000;
// People's non-poll requests share these, one in flight on each. With 64, requests waited in the
// generator (p99 44-74 ms at realistic 5,000); one per person closed as idle and lost requests.
const SHARED_CONNECTIONS = 256;
const REGISTER_CONCURRENCY = 16;
/** The web page's register: every event type, with what it declares (SPEC POST /register client_capabilities). */
export const WEB_REGISTER_FORM = {
  apply_markdown: 'true',
  client_capabilities: JSON.stringify({
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
  }),
  slim_presence: 'true',
};

/** What the generator saw in the measured window. */
export class Recorder {
  measuring = false;
  readonly latencies = new Map<Kind, number[]>(KINDS.map((kind) => [kind, []]));
  /** Of each latency, the part spent in the generator waiting for a shared connection. */
  readonly connectionWaits = new Map<Kind, number[]>(KINDS.map((kind) => [kind, []]));
  readonly errors = new Map<Kind, number>(KINDS.map((kind) => [kind, 0]));
  readonly errorSamples: string[] = [];
  readonly deliveriesMs: number[] = [];
  /** The same deliveries, timed when the server wrote each answer (test hooks' X-Test-Answered-At). */
  readonly deliveriesAtServerMs: number[] = [];

  record(kind: Kind, startedMs: number, response: RawResponse | null, always = false): void {
    if (!this.measuring && !always) return;
    if (response === null || response.status !== 200) {
      this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
      const sample = response ? `${kind} ${response.status} ${response.body.slice(0, 160)}` : `${kind}: connection lost`;
      if (this.errorSamples.length < 5) this.errorSamples.push(sample);
      return;
    }
    this.latencies.get(kind)?.push(response.at - startedMs);
    this.connectionWaits.get(kind)?.push(response.sentAt - startedMs);
  }

  /** The polling thread's figures of the same window (polls and deliveries are timed there). */
  addPolls(polls: PollFigures): void {
    const latencies = this.latencies.get('poll') ?? [];
    for (const ms of polls.latenciesMs) latencies.push(ms);
    this.errors.set('poll', (this.errors.get('poll') ?? 0) + polls.errors);
    for (const sample of polls.errorSamples) if (this.errorSamples.length < 5) this.errorSamples.push(sample);
    for (const ms of polls.deliveriesMs) this.deliveriesMs.push(ms);
    for (const ms of polls.deliveriesAtServerMs) this.deliveriesAtServerMs.push(ms);
  }

  reset(): void {
    for (const list of this.latencies.values()) list.length = 0;
    for (const list of this.connectionWaits.values()) list.length = 0;
    for (const kind of KINDS) this.errors.set(kind, 0);
    this.errorSamples.length = 0;
    this.deliveriesMs.length = 0;
    this.deliveriesAtServerMs.length = 0;
  }
}

interface Member {
  person: Person;
  /** This person's own choices and timers, the same in every run of a step (personRandom). */
  random: () => number;
  /** Messages its polls brought unread, to mark read next (from the polling thread). */
  unread: number[];
}

/**
 * A person's own reproducible sequence in [0, 1) (mulberry32). With Math.random, how many
 * messages went to the all-hands stream in a window varied from run to run, and with it
 * every figure; seeded per person, a step makes the same choices at the same times in
 * every run, whatever order the timers fire in.
 */
function personRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomInt(member: Member, n: number): number {
  return Math.floor(member.random() * n);
}

const POLL_THREAD = path.join(__dirname, 'mixed-poll-thread.js');

/**
 * The simulated people of one step: each keeps a poll parked (on the polling thread,
 * mixed-polls.ts) and acts on timers here.
 */
export class Crowd {
  private readonly pool: RawPool;
  private readonly members: Member[];
  private readonly timers = new Set<NodeJS.Timeout>();
  private polls: Worker | null = null;
  private nextSeq = 1;
  private running = false;

  constructor(
    private readonly realm: PeopleRealm,
    private readonly port: number,
    private readonly mix: Mix,
    private readonly recorder: Recorder,
  ) {
    this.pool = new RawPool(port, SHARED_CONNECTIONS);
    this.members = realm.people.map((person, index) => ({ person, random: personRandom(index + 1), unread: [] }));
  }

  get size(): number {
    return this.members.length;
  }

  /**
   * Everyone registers and says they are here, a few at a time; then the polling thread opens
   * everyone's poll connection.
   */
  async join(): Promise<number[]> {
    const registerMs: number[] = [];
    const pollers: Poller[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < this.members.length) {
        const index = next++;
        const { person } = this.members[index] as Member;
        const started = performance.now();
        const answer = await this.pool.request('POST', '/api/v1/register', person.auth, WEB_REGISTER_FORM);
        if (answer.status !== 200) throw new Error(`register: ${answer.status} ${answer.body.slice(0, 200)}`);
        registerMs.push(answer.at - started);
        const state = JSON.parse(answer.body) as { queue_id: string; last_event_id: number };
        pollers[index] = { personId: person.id, auth: person.auth, queueId: state.queue_id, lastEventId: state.last_event_id };
        await this.pool.request('POST', '/api/v1/users/me/presence', person.auth, { status: 'active', ping_only: 'true' });
      }
    };
    await Promise.all(Array.from({ length: REGISTER_CONCURRENCY }, worker));
    await this.startPollThread(pollers);
    return registerMs.sort((a, b) => a - b);
  }

  /** Polls parked and every periodic action started, each person at a random phase. */
  start(): void {
    this.running = true;
    this.tellPolls({ type: 'poll' });
    for (const member of this.members) {
      this.every(member, this.mix.readEveryMs, () => this.read(member));
      this.every(member, this.mix.markReadEveryMs, () => this.markRead(member));
      this.every(member, this.mix.presenceEveryMs, () => this.presence(member));
      this.every(member, this.mix.sendEveryMs, () => this.typeAndSend(member));
    }
  }

  /** Starts or ends the measured window, here and on the polling thread. */
  measure(on: boolean): void {
    if (on) this.recorder.reset();
    this.recorder.measuring = on;
    this.tellPolls({ type: 'measure', on });
  }

  /** No new actions; polls go on, so the last sends' deliveries still arrive, until `close`. */
  stop(): void {
    this.running = false;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /** The polling thread's figures of the measured window, and what never arrived. */
  collectPolls(): Promise<PollFigures> {
    const polls = this.polls;
    if (!polls) return Promise.reject(new Error('no polling thread'));
    return new Promise((resolve) => {
      const onMessage = (message: FromPolls): void => {
        if (message.type !== 'collected') return;
        polls.off('message', onMessage);
        resolve(message.polls);
      };
      polls.on('message', onMessage);
      this.tellPolls({ type: 'collect' });
    });
  }

  async close(): Promise<void> {
    this.stop();
    this.pool.close();
    await this.polls?.terminate();
    this.polls = null;
  }

  private startPollThread(pollers: Poller[]): Promise<void> {
    const data: PollThreadData = { port: this.port, pollers, members: [...this.realm.members] };
    const polls = new Worker(POLL_THREAD, { workerData: data });
    this.polls = polls;
    polls.on('message', (message: FromPolls) => {
      if (message.type !== 'unread') return;
      const pairs = message.pairs;
      for (let i = 0; i < pairs.length; i += 2) this.members[pairs[i] as number]?.unread.push(pairs[i + 1] as number);
    });
    return new Promise((resolve, reject) => {
      polls.once('error', reject);
      polls.on('message', (message: FromPolls) => {
        if (message.type === 'ready') resolve();
      });
    });
  }

  private tellPolls(message: ToPolls): void {
    this.polls?.postMessage(message);
  }

  private every(member: Member, periodMs: number, action: () => void): void {
    const first = setTimeout(() => {
      this.timers.delete(first);
      if (!this.running) return;
      action();
      const repeat = setInterval(action, periodMs);
      this.timers.add(repeat);
    }, member.random() * periodMs);
    this.timers.add(first);
  }

  private async call(kind: Parameters<Recorder['record']>[0], member: Member, method: string, path: string, form?: Record<string, string>) {
    const started = performance.now();
    let answer: RawResponse | null = null;
    try {
      answer = await this.pool.request(method, path, member.person.auth, form);
    } finally {
      this.recorder.record(kind, started, answer);
    }
    return answer;
  }

  private read(member: Member): void {
    const streamId = member.person.streamIds[randomInt(member, member.person.streamIds.length)] ?? this.realm.allHandsId;
    const narrow = JSON.stringify([
      { operator: 'stream', operand: streamId },
      { operator: 'topic', operand: `topic ${randomInt(member, TOPICS_PER_STREAM)}` },
    ]);
    const query = new URLSearchParams({ anchor: 'newest', num_before: '50', num_after: '0', narrow, apply_markdown: 'true' });
    void this.call('get-messages', member, 'GET', `/api/v1/messages?${query.toString()}`).catch(() => undefined);
  }

  private markRead(member: Member): void {
    if (member.unread.length === 0) return;
    const messages = JSON.stringify(member.unread.splice(0));
    void this.call('mark-read', member, 'POST', '/api/v1/messages/flags', { messages, op: 'add', flag: 'read' }).catch(() => undefined);
  }

  private presence(member: Member): void {
    const form = { status: 'active', new_user_input: 'true', slim_presence: 'true' };
    void this.call('presence', member, 'POST', '/api/v1/users/me/presence', form).catch(() => undefined);
  }

  private typeAndSend(member: Member): void {
    const streams = member.person.streamIds;
    const streamId =
      member.random() < ALL_HANDS_SHARE
        ? this.realm.allHandsId
        : (streams[1 + randomInt(member, streams.length - 1)] ?? this.realm.allHandsId);
    const topic = `topic ${randomInt(member, TOPICS_PER_STREAM)}`;
    const typing = (op: string): void => {
      const form = { type: 'stream', op, to: `[${streamId}]`, topic };
      void this.call('typing', member, 'POST', '/api/v1/typing', form).catch(() => undefined);
    };
    typing('start');
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const seq = this.nextSeq++;
      this.tellPolls({ type: 'sent', seq, streamId, sentAt: epochMs(), counted: this.recorder.measuring });
      const form = { type: 'stream', to: String(streamId), topic, content: `mixed ${seq}` };
      this.call('send', member, 'POST', '/api/v1/messages', form).then(
        (answer) => {
          // A refused send owes no deliveries (the error is counted).
          if (answer?.status !== 200) this.tellPolls({ type: 'unsent', seq });
          typing('stop');
        },
        () => this.tellPolls({ type: 'unsent', seq }),
      );
    }, TYPING_BEFORE_SEND_MS);
    this.timers.add(timer);
  }
}
