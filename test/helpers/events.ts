import { clientEventSchema } from '../../workers/events/types';
import type { ApiClient } from './http';

export type ReceivedEvent = Record<string, unknown> & { id: number; type: string };

/** Every event any test of this process received, and the failures of its validation. */
export const received = { count: 0, invalid: [] as string[] };

/**
 * Validates one event against the union of declared payloads (workers/events/types.ts);
 * returns the zod issues as text, or null when it conforms.
 */
export function eventViolation(event: unknown): string | null {
  const result = clientEventSchema.safeParse(event);
  return result.success ? null : `${JSON.stringify(event)}: ${JSON.stringify(result.error.issues)}`;
}

/** One client's event queue, read the way clients read it (GET /events, dont_block). */
export class EventReader {
  private lastEventId: number;

  private constructor(
    readonly client: ApiClient,
    readonly queueId: string,
    lastEventId: number,
    readonly state: Record<string, unknown>,
  ) {
    this.lastEventId = lastEventId;
  }

  /** POST /register with `params`; throws when the server refuses. */
  static async register(client: ApiClient, params: Record<string, string | number | boolean | object> = {}): Promise<EventReader> {
    const res = await client.post('/register', params);
    if (res.status !== 200) throw new Error(`register failed: ${res.text}`);
    return new EventReader(client, String(res.body['queue_id']), Number(res.body['last_event_id']), res.body);
  }

  /**
   * The events queued since the last read (acknowledging them), heartbeats left out. Each is
   * validated against the union; a failure throws with the zod issues, failing the test.
   */
  async next(): Promise<ReceivedEvent[]> {
    const res = await this.client.get('/events', { queue_id: this.queueId, last_event_id: this.lastEventId, dont_block: true });
    if (res.status !== 200) throw new Error(`GET /events failed: ${res.text}`);
    const events = res.body['events'] as ReceivedEvent[];
    const problems: string[] = [];
    for (const event of events) {
      received.count++;
      const problem = eventViolation(event);
      if (problem !== null) problems.push(problem);
      this.lastEventId = Math.max(this.lastEventId, event.id);
    }
    if (problems.length > 0) {
      received.invalid.push(...problems);
      throw new Error(`events not in the declared union:\n${problems.join('\n')}`);
    }
    return events.filter((event) => event.type !== 'heartbeat');
  }

  /** The next events without their `id` counters, for exact comparisons. */
  async nextPayloads(): Promise<Record<string, unknown>[]> {
    return (await this.next()).map(({ id: _id, ...payload }) => payload);
  }

  /**
   * Blocks on GET /events (no dont_block, as clients poll) until events other than
   * heartbeats arrive, for events an actor publishes later; returns them without their ids.
   */
  async waitPayloads(): Promise<Record<string, unknown>[]> {
    for (;;) {
      const res = await this.client.get('/events', { queue_id: this.queueId, last_event_id: this.lastEventId });
      if (res.status !== 200) throw new Error(`GET /events failed: ${res.text}`);
      const events = res.body['events'] as ReceivedEvent[];
      for (const event of events) {
        received.count++;
        const problem = eventViolation(event);
        if (problem !== null) throw new Error(`event not in the declared union:\n${problem}`);
        this.lastEventId = Math.max(this.lastEventId, event.id);
      }
      const payloads = events.filter((event) => event.type !== 'heartbeat').map(({ id: _id, ...payload }) => payload);
      if (payloads.length > 0) return payloads;
    }
  }

  /** The events of one type. */
  async nextOfType(type: string): Promise<Record<string, unknown>[]> {
    return (await this.nextPayloads()).filter((event) => event['type'] === type);
  }
}
