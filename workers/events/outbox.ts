import type { PublishedEvent } from './published';

/**
 * Events an action queues while its transaction runs. They reach event queues only after the
 * commit (the realm drains the outbox then); a rollback drops them, so no client ever sees
 * an event for a write that did not happen.
 */
export interface QueuedEvent {
  event: PublishedEvent;
  userIds: readonly number[];
}

export type EventListener = (events: readonly QueuedEvent[]) => void;

/** Where committed events go. The event-queue system registers itself here. */
export class EventBus {
  private readonly listeners = new Set<EventListener>();

  /** `check` (CONTRACT_CHECKS, tests only) throws on an event that breaks its schema. */
  constructor(readonly check?: (event: unknown) => void) {}

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** An event that no transaction carries (an actor's, like typing): delivered at once. */
  publish(event: QueuedEvent['event'], userIds: readonly number[]): void {
    this.check?.(event);
    this.deliver([{ event, userIds }]);
  }

  deliver(events: readonly QueuedEvent[]): void {
    if (events.length === 0) return;
    for (const listener of this.listeners) listener(events);
  }
}
