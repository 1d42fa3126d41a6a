import { JsonText } from '../lib/json-bytes';
import { clientEvent, type EventPayload, type QueueEntry } from './queue';

/*
 * A message event reaches every recipient's poll with the same message object (one of its four
 * variants, events/shape.ts), and most recipients get the very same payload around it (the same
 * variant and flags): what many queues share is serialised once, not once per poll. Objects
 * marked shared must not change afterwards.
 */

/** null: shared, not serialised yet. */
const sharedJson = new WeakMap<object, string | null>();

/** Marks `value` as reaching many queues unchanged: its JSON is made once, when first needed. */
export function shareJson(value: object): void {
  if (!sharedJson.has(value)) sharedJson.set(value, null);
}

function jsonOf(value: unknown): string | undefined {
  if (typeof value === 'object' && value !== null) {
    const cached = sharedJson.get(value);
    if (cached === null) {
      const text = JSON.stringify(value);
      sharedJson.set(value, text);
      return text;
    }
    if (cached !== undefined) return cached;
  }
  return JSON.stringify(value);
}

/** A shared payload's JSON without its closing brace, made once for every queue it reaches. */
const openJson = new WeakMap<EventPayload, string>();

/** One event as JSON.stringify writes it (keys in order, undefined values left out). */
function eventJson(queued: QueueEntry): string {
  const payload = queued.payload;
  // The client's event is the payload's fields then `id`: a shared payload's JSON with the id
  // added before the brace (unless the payload has an `id` of its own, which keeps its place).
  if (sharedJson.has(payload) && !('id' in payload)) {
    let open = openJson.get(payload);
    if (open === undefined) openJson.set(payload, (open = (jsonOf(payload) as string).slice(0, -1)));
    return `${open}${open.length > 1 ? ',' : ''}"id":${queued.id}}`;
  }
  const event = clientEvent(queued);
  let text = '{';
  for (const key in event) {
    const value = jsonOf(event[key]);
    if (value === undefined) continue;
    text += `${text === '{' ? '' : ','}${JSON.stringify(key)}:${value}`;
  }
  return `${text}}`;
}

/** A poll's events as one JSON array, each shared part written from its cached JSON. */
export function eventsJson(events: readonly QueueEntry[]): JsonText {
  if (events.length === 1) return new JsonText(`[${eventJson(events[0] as QueueEntry)}]`);
  return new JsonText(`[${events.map(eventJson).join(',')}]`);
}
