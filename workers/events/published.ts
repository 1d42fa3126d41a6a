import { z } from 'zod';
import { checkEvent } from '../lib/contract';
import { EVENTS_DELIVERED_AS_PUBLISHED } from './delivered-as-published';
import { messageObjectSchema, updateMessageEvent } from './message-payloads';
import { personUpdate, realmUserEvent, subscriptionEvent, subscriptionObjectSchema } from './stream-user-payloads';

/*
 * What an action publishes (tx.publish) or an actor hands the bus, before each queue shapes
 * it (events/shape.ts). Most events reach every queue as published, so their schema is the
 * client's payload schema (types.ts). Five carry what only the queues read, which shape.ts
 * turns into each client's form and strips:
 *   message         flags per recipient (flags_by_user → `flags`), the raw content (for
 *                   apply_markdown false), the sender's queue and local id, public_stream
 *                   (all_public_streams queues); the message object still has its `flags`
 *   update_message  flags_by_user → `flags`
 *   subscription    add: inherited_settings (a null setting for clients without
 *                   notification_settings_null)
 *   realm_user      update: avatar_for_hidden_email (recipients who cannot see the email)
 * delete_message is published in its bulk form; queues without bulk_message_deletion get one
 * event per message.
 */

const flagsByUser = z.record(z.string(), z.union([z.number().int(), z.array(z.string())]));

const publishedMessageEvent = z.strictObject({
  type: z.literal('message'),
  message: messageObjectSchema.extend({ flags: z.array(z.string()) }),
  raw_content: z.string(),
  flags_by_user: flagsByUser,
  sender_queue_id: z.string().optional(),
  local_message_id: z.string().optional(),
  public_stream: z.boolean(),
});

const publishedUpdateMessageEvent = updateMessageEvent.omit({ flags: true }).extend({ flags_by_user: flagsByUser });

const [, subscriptionRemove, subscriptionUpdate, peerAdd, peerRemove] = subscriptionEvent.options;
const publishedSubscriptionEvent = z.discriminatedUnion('op', [
  z.strictObject({
    type: z.literal('subscription'),
    op: z.literal('add'),
    subscriptions: z.array(subscriptionObjectSchema),
    inherited_settings: z.record(z.string(), z.boolean()).optional(),
  }),
  subscriptionRemove,
  subscriptionUpdate,
  peerAdd,
  peerRemove,
]);

const [personAdd, , personRemove] = realmUserEvent.options;
const publishedRealmUserEvent = z.discriminatedUnion('op', [
  personAdd,
  z.strictObject({
    type: z.literal('realm_user'),
    op: z.literal('update'),
    person: personUpdate,
    avatar_for_hidden_email: z.literal(true).optional(),
  }),
  personRemove,
]);

/** Every event an action or actor may publish. */
export const publishedEventSchema = z.discriminatedUnion('type', [
  publishedMessageEvent,
  publishedUpdateMessageEvent,
  publishedSubscriptionEvent,
  publishedRealmUserEvent,
  ...EVENTS_DELIVERED_AS_PUBLISHED,
]);

export type PublishedEvent = z.input<typeof publishedEventSchema>;
/** One published type (and op), for actions that build an event before publishing it. */
export type Published<T extends PublishedEvent['type']> = Extract<PublishedEvent, { type: T }>;

/** CONTRACT_CHECKS: throws (lib/contract.ts) when an action or actor publishes what the union forbids. */
export function checkPublishedEvent(event: unknown): void {
  checkEvent(publishedEventSchema, event);
}
