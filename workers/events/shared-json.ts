import { JsonText } from '../lib/json-bytes';
import type { ClientEvent } from './queue';

/*
 * A message event reaches every recipient's poll with the same message object (one of its four
 * variants, events/shape.ts) and only the flags and the queue's id differ: the message, most of
 * the answer, is serialised once for all of them, not once per poll. Objects marked shared must
 * not change afterwards.
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

/** One event as JSON.stringify writes it (keys in order, undefined values left out). */
function eventJson(event: ClientEvent): string {
  let text = '{';
  for (const key in event) {
    const value = jsonOf(event[key]);
    if (value === undefined) continue;
    text += `${text === '{' ? '' : ','}${JSON.stringify(key)}:${value}`;
  }
  return `${text}}`;
}

/** A poll's events as one JSON array, each shared part written from its cached JSON. */
export function eventsJson(events: readonly ClientEvent[]): JsonText {
  return new JsonText(`[${events.map(eventJson).join(',')}]`);
}
