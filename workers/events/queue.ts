import { errors } from '../lib/errors';

/** The capabilities a client declares at register (SPEC POST /register), all false by default. */
export interface ClientCapabilities {
  notification_settings_null: boolean;
  bulk_message_deletion: boolean;
  user_avatar_url_field_optional: boolean;
  stream_typing_notifications: boolean;
  user_settings_object: boolean;
  linkifier_url_template: boolean;
}

export const CAPABILITY_NAMES = [
  'notification_settings_null',
  'bulk_message_deletion',
  'user_avatar_url_field_optional',
  'stream_typing_notifications',
  'user_settings_object',
  'linkifier_url_template',
] as const satisfies readonly (keyof ClientCapabilities)[];

/** What a queue's client asked for at register; it shapes and filters every event it gets. */
export interface QueueOptions {
  /** null: every type. */
  eventTypes: readonly string[] | null;
  applyMarkdown: boolean;
  clientExtavatar: boolean;
  allPublicStreams: boolean;
  /** [operator, operand] pairs, as register takes them; messages must match all. */
  narrow: readonly (readonly [string, string])[];
  capabilities: ClientCapabilities;
}

/** An event as a client receives it: its type, its payload and its per-queue id. */
export type ClientEvent = { type: string; id: number } & Record<string, unknown>;
export type EventPayload = { type: string } & Record<string, unknown>;

/**
 * An event as a queue keeps it: its payload, which many queues may share (events/shape.ts), and
 * the id it has in this queue. The client sees the payload's fields and then `id`.
 */
export interface QueueEntry {
  payload: EventPayload;
  id: number;
}

/** The event as the client receives it. */
export function clientEvent(queued: QueueEntry): ClientEvent {
  return { ...queued.payload, id: queued.id };
}

/** What a graceful stop writes into the realm file for each queue (workers/events/clients.ts). */
export interface SavedQueue {
  queueId: string;
  userId: number;
  options: QueueOptions;
  nextEventId: number;
  newestPrunedId: number;
  lastActivityMs: number;
  events: ClientEvent[];
}

/**
 * One client's event queue (SPEC §Events, api-notes §b GET /events): events get increasing
 * ids from 0; a fetch with `last_event_id` acknowledges, and drops, every event up to it.
 */
export class EventQueue {
  private events: QueueEntry[] = [];
  private nextEventId = 0;
  private newestPrunedId = -1;
  /** Wall-clock ms of the last register or fetch; idle queues are collected after a while. */
  lastActivityMs: number;

  constructor(
    readonly id: string,
    readonly userId: number,
    readonly options: QueueOptions,
    nowMs: number,
  ) {
    this.lastActivityMs = nowMs;
  }

  static restore(saved: SavedQueue): EventQueue {
    const queue = new EventQueue(saved.queueId, saved.userId, saved.options, saved.lastActivityMs);
    // A saved event holds its id already, where the client saw it.
    queue.events = saved.events.map((event) => ({ payload: event, id: event.id }));
    queue.nextEventId = saved.nextEventId;
    queue.newestPrunedId = saved.newestPrunedId;
    return queue;
  }

  save(): SavedQueue {
    return {
      queueId: this.id,
      userId: this.userId,
      options: this.options,
      nextEventId: this.nextEventId,
      newestPrunedId: this.newestPrunedId,
      lastActivityMs: this.lastActivityMs,
      events: this.pending,
    };
  }

  get isEmpty(): boolean {
    return this.events.length === 0;
  }

  /** The events not yet acknowledged, oldest first. */
  get pending(): ClientEvent[] {
    return this.events.map(clientEvent);
  }

  /** The same, as the queue keeps them (their JSON is written from shared parts, events/shared-json.ts). */
  get queued(): readonly QueueEntry[] {
    return this.events;
  }

  push(payload: EventPayload): void {
    this.events.push({ payload, id: this.nextEventId++ });
  }

  /**
   * Drops the events up to `lastEventId`, which the client says it has. An id older than what
   * was already dropped, or one this queue never had, is the client's error (api-notes §b).
   */
  acknowledge(lastEventId: number): void {
    if (lastEventId < this.newestPrunedId) {
      throw errors.eventAlreadyPruned(lastEventId);
    }
    if (lastEventId === this.newestPrunedId) return;
    if (lastEventId >= this.nextEventId) throw errors.eventNotInQueue(lastEventId);
    let drop = 0;
    while (drop < this.events.length && (this.events[drop] as QueueEntry).id <= lastEventId) drop++;
    if (drop > 0) this.events = this.events.slice(drop);
    this.newestPrunedId = lastEventId;
  }
}
