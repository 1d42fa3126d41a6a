import { z } from 'zod';
import { BinaryReply } from './binary-reply';
import { JsonBytes, JsonText } from './json-bytes';

/**
 * CONTRACT_CHECKS (tests only, never production): every success body and every event is
 * checked against the zod schema the code declares for it, as the client would parse it (the
 * JSON it is sent as). A body or event that breaks its schema is a server bug, answered 500
 * with the route or event and the zod issue paths, so every test that reaches it fails.
 */
export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

const serializedUnions = new WeakSet<object>();

/** A pre-serialised value (lib/json-bytes.ts) of what `schema` describes, validated as its JSON. */
export function serialized<T extends z.ZodType>(schema: T) {
  const union = z.union([z.instanceof(JsonBytes), z.instanceof(JsonText), schema]);
  serializedUnions.add(union);
  return union;
}

/** Whether `schema` is a `serialized` union: its JSON is its last member's. */
export function isSerialized(schema: object): boolean {
  return serializedUnions.has(schema);
}

/** `value` as a client reads it: JSON text parsed back, pre-serialised pieces included. */
function asSent(value: unknown): unknown {
  const text = JSON.stringify(value, (_key, item: unknown) =>
    item instanceof JsonBytes
      ? (JSON.parse(Buffer.concat(item.pieces).toString('utf8')) as unknown)
      : item instanceof JsonText
        ? (JSON.parse(item.text) as unknown)
        : item,
  );
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

/** The zod issues of `value` against `schema`, one `path: message` per line; '' when none. */
export function issuesOf(schema: z.ZodType, value: unknown): string {
  const parsed = schema.safeParse(asSent(value));
  if (parsed.success) return '';
  return parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`).join('; ');
}

/** Throws when `event`, as published, breaks `schema` (the published-event union). */
export function checkEvent(schema: z.ZodType, event: unknown): void {
  const issues = issuesOf(schema, event);
  if (issues === '') return;
  const type = typeof event === 'object' && event !== null && 'type' in event ? String(event.type) : '?';
  throw new ContractViolation(`a published ${type} event breaks the published-event schema: ${issues}`);
}

/** Throws when the success body's fields (beside result/msg) break the route's result schema. */
export function checkRouteResult(routeId: string, result: z.ZodObject | 'bytes', body: unknown): void {
  const bytes = body instanceof BinaryReply;
  if (result === 'bytes') {
    if (!bytes) throw new ContractViolation(`${routeId}: declared to answer bytes, answered JSON`);
    return;
  }
  if (bytes) throw new ContractViolation(`${routeId}: answered bytes, declared a JSON body`);
  const issues = issuesOf(result, body);
  if (issues !== '') throw new ContractViolation(`${routeId} answered a body its result schema rejects: ${issues}`);
}
