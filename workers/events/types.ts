import { z } from 'zod';
import { EVENTS_DELIVERED_AS_PUBLISHED } from './delivered-as-published';
import { messageEvent, updateMessageEvent } from './message-payloads';
import { realmUserEvent, subscriptionEvent } from './stream-user-payloads';

/*
 * Every event payload as a client receives it from GET /events (api-notes §d, the reference
 * OpenAPI's event schemas, with the spec's neutral names), as ONE discriminated union: by
 * `type`, then by `op` where the event has one. Objects are strict where api-notes says the
 * keys are exact, so an extra or a missing key fails. The payloads carry no `id`: the queue
 * numbers each event (clientEventSchema). What actions publish is published.ts's union; the
 * queues shape it into these (events/shape.ts).
 */

/** Every event payload a client can receive, without the queue's `id`. */
export const eventPayloadSchema = z.discriminatedUnion('type', [
  messageEvent,
  updateMessageEvent,
  subscriptionEvent,
  realmUserEvent,
  ...EVENTS_DELIVERED_AS_PUBLISHED,
]);

/** An event as GET /events answers it: its queue's `id`, then a payload of the union. */
export const clientEventSchema = z
  .looseObject({ id: z.number().int() })
  .transform(({ id: _id, ...payload }) => payload)
  .pipe(eventPayloadSchema);

export type ClientEventPayload = z.output<typeof eventPayloadSchema>;
export type ClientEventType = ClientEventPayload['type'];

/** The declared `type` strings, for the check that nothing ships undeclared. */
export function declaredEventTypes(): string[] {
  return eventPayloadSchema.options
    .map((option) => {
      const values = option._zod.propValues?.['type'];
      return values ? [...values].map(String) : [];
    })
    .flat();
}
