import { RawConnection, RawPool, type RawResponse } from './raw-http';
import type { Person, PeopleRealm } from './seed-people';

/** The request kinds of the `mixed` scenario, as its report names them. */
export const KINDS = ['register', 'poll', 'get-messages', 'mark-read', 'presence', 'typing', 'send'] as const;
export type Kind = (typeof KINDS)[number];

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
const TOPICS_PER_STREAM = 5;
const TYPING_BEFORE_SEND_MS = 1_000;
// People's non-poll requests share these, one in flight on each. With 64, requests waited in the
// generator (p99 44-74 ms at realistic 5,000); one per person closed as idle and lost requests.
const SHARED_CONNECTIONS = 256;
const REGISTER_CONCURRENCY = 16;
// What the web page declares (SPEC POST /register client_capabilities).
const CAPABILITIES = JSON.stringify({
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: true,
  stream_typing_notifications: true,
  user_settings_object: true,
});

/** What the generator saw in the measured window. */
export class Recorder {
  measuring = false;
  readonly latencies = new Map<Kind, number[]>(KINDS.map((kind) => [kind, []]));
  /** Of each latency, the part spent in the generator waiting for a shared connection. */
  readonly connectionWaits = new Map<Kind, number[]>(KINDS.map((kind) => [kind, []]));
  readonly errors = new Map<Kind, number>(KINDS.map((kind) => [kind, 0]));
  readonly errorSamples: string[] = [];
  readonly deliveriesMs: number[] = [];

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

  reset(): void {
    for (const list of this.latencies.values()) list.length = 0;
    for (const list of this.connectionWaits.values()) list.length = 0;
    for (const kind of KINDS) this.errors.set(kind, 0);
    this.errorSamples.length = 0;
    this.deliveriesMs.length = 0;
  }
}

interface Sent {
  sentAtMs: number;
  /** Recipients whose queue has not had it yet. */
  waiting: Set<number>;
  counted: boolean;
}

interface Member {
  person: Person;
  poller: RawConnection;
  queueId: string;
  lastEventId: number;
  unread: number[];
}

interface MessageEvent {
  type: string;
  id: number;
  message?: { id: number; content: string; sender_id: number };
  flags?: string[];
}

function randomInt(n: number): number {
  return Math.floor(Math.random() * n);
}

/** The simulated people of one step: each keeps a poll parked and acts on timers. */
export class Crowd {
  private readonly pool: RawPool;
  private readonly members: Member[];
  private readonly sent = new Map<number, Sent>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextSeq = 1;
  private running = false;
  /** Polls go on after `stop`, so the last sends' deliveries still arrive; until `close`. */
  private polling = false;

  constructor(
    private readonly realm: PeopleRealm,
    port: number,
    private readonly mix: Mix,
    private readonly recorder: Recorder,
  ) {
    this.pool = new RawPool(port, SHARED_CONNECTIONS);
    this.members = realm.people.map((person) => ({ person, poller: new RawConnection(port), queueId: '', lastEventId: -1, unread: [] }));
  }

  get size(): number {
    return this.members.length;
  }

  /** Everyone opens their poll connection, registers and says they are here, a few at a time. */
  async join(): Promise<number[]> {
    const registerMs: number[] = [];
    for (let i = 0; i < this.members.length; i += 200) {
      await Promise.all(this.members.slice(i, i + 200).map((member) => member.poller.connect()));
    }
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < this.members.length) {
        const member = this.members[next++] as Member;
        const started = performance.now();
        const form = { apply_markdown: 'true', client_capabilities: CAPABILITIES, slim_presence: 'true' };
        const answer = await this.pool.request('POST', '/api/v1/register', member.person.auth, form);
        if (answer.status !== 200) throw new Error(`register: ${answer.status} ${answer.body.slice(0, 200)}`);
        registerMs.push(answer.at - started);
        const state = JSON.parse(answer.body) as { queue_id: string; last_event_id: number };
        member.queueId = state.queue_id;
        member.lastEventId = state.last_event_id;
        await this.pool.request('POST', '/api/v1/users/me/presence', member.person.auth, { status: 'active', ping_only: 'true' });
      }
    };
    await Promise.all(Array.from({ length: REGISTER_CONCURRENCY }, worker));
    return registerMs.sort((a, b) => a - b);
  }

  /** Polls parked and every periodic action started, each person at a random phase. */
  start(): void {
    this.running = true;
    this.polling = true;
    for (const member of this.members) {
      this.poll(member);
      this.every(this.mix.readEveryMs, () => this.read(member));
      this.every(this.mix.markReadEveryMs, () => this.markRead(member));
      this.every(this.mix.presenceEveryMs, () => this.presence(member));
      this.every(this.mix.sendEveryMs, () => this.typeAndSend(member));
    }
  }

  stop(): void {
    this.running = false;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  close(): void {
    this.stop();
    this.polling = false;
    this.pool.close();
    for (const member of this.members) member.poller.close();
  }

  /** Recipients still waiting for a message sent while measuring. */
  lost(): number {
    let lost = 0;
    for (const sent of this.sent.values()) if (sent.counted) lost += sent.waiting.size;
    return lost;
  }

  private every(periodMs: number, action: () => void): void {
    const first = setTimeout(() => {
      this.timers.delete(first);
      if (!this.running) return;
      action();
      const repeat = setInterval(action, periodMs);
      this.timers.add(repeat);
    }, Math.random() * periodMs);
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

  private poll(member: Member): void {
    if (!this.polling) return;
    const path = `/api/v1/events?queue_id=${encodeURIComponent(member.queueId)}&last_event_id=${member.lastEventId}`;
    const started = performance.now();
    member.poller.request('GET', path, member.person.auth).then(
      (answer) => {
        this.recorder.record('poll', started, answer);
        if (answer.status !== 200) return;
        this.received(member, (JSON.parse(answer.body) as { events: MessageEvent[] }).events, answer.at);
        this.poll(member);
      },
      () => {
        this.recorder.record('poll', started, null);
        setTimeout(() => this.poll(member), 1_000);
      },
    );
  }

  private received(member: Member, events: MessageEvent[], atMs: number): void {
    for (const event of events) {
      member.lastEventId = Math.max(member.lastEventId, event.id);
      if (event.type !== 'message' || !event.message) continue;
      if (!event.flags?.includes('read')) member.unread.push(event.message.id);
      const seq = Number(/mixed (\d+)/.exec(event.message.content)?.[1] ?? 0);
      const sent = this.sent.get(seq);
      if (!sent?.waiting.delete(member.person.id)) continue;
      if (sent.counted) this.recorder.deliveriesMs.push(atMs - sent.sentAtMs);
      if (sent.waiting.size === 0) this.sent.delete(seq);
    }
  }

  private read(member: Member): void {
    const streamId = member.person.streamIds[randomInt(member.person.streamIds.length)] ?? this.realm.allHandsId;
    const narrow = JSON.stringify([
      { operator: 'stream', operand: streamId },
      { operator: 'topic', operand: `topic ${randomInt(TOPICS_PER_STREAM)}` },
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
      Math.random() < ALL_HANDS_SHARE ? this.realm.allHandsId : (streams[1 + randomInt(streams.length - 1)] ?? this.realm.allHandsId);
    const topic = `topic ${randomInt(TOPICS_PER_STREAM)}`;
    const typing = (op: string): void => {
      const form = { type: 'stream', op, to: `[${streamId}]`, topic };
      void this.call('typing', member, 'POST', '/api/v1/typing', form).catch(() => undefined);
    };
    typing('start');
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const seq = this.nextSeq++;
      const waiting = new Set(this.realm.members.get(streamId) ?? []);
      const sent: Sent = { sentAtMs: performance.now(), waiting, counted: this.recorder.measuring };
      this.sent.set(seq, sent);
      const form = { type: 'stream', to: String(streamId), topic, content: `mixed ${seq}` };
      this.call('send', member, 'POST', '/api/v1/messages', form).then(
        (answer) => {
          // A refused send owes no deliveries (the error is counted).
          if (answer?.status !== 200) this.sent.delete(seq);
          typing('stop');
        },
        () => this.sent.delete(seq),
      );
    }, TYPING_BEFORE_SEND_MS);
    this.timers.add(timer);
  }
}
