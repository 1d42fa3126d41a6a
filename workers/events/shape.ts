import { flagNames, sharedFlagNames, type MessageFlag } from '../lib/flags';
import { isUploadedAvatarUrl } from '../lib/avatar-url';
import { matchesQueueNarrow, type NarrowableMessage } from './narrow-filter';
import type { EventPayload, EventQueue } from './queue';
import { shareJson } from './shared-json';

/**
 * What one queue receives of a published event (api-notes §d): its `event_types`, `narrow`,
 * `apply_markdown`, `client_extavatar` and capabilities decide; [] when nothing. Actions
 * publish one event for everyone, carrying per-user parts in fields that start here and never
 * reach a client (INTERNAL_KEYS).
 */
export function shapeForQueue(queue: EventQueue, event: EventPayload, userId: number): EventPayload[] {
  const options = queue.options;
  if (options.eventTypes !== null && event.type !== 'heartbeat' && !options.eventTypes.includes(event.type)) return [];
  const capabilities = options.capabilities;
  switch (event.type) {
    case 'message':
      return messageForQueue(queue, event as MessageEventPayload, userId);
    case 'update_message':
      return [withoutInternal(event, { flags: userFlagsIn(event, userId) ?? [] })];
    case 'delete_message':
      if (capabilities.bulk_message_deletion) return [event];
      return deletedOneByOne(event);
    case 'typing':
      // SPEC POST /typing: stream typing only for clients that declared they show it.
      return event['message_type'] === 'stream' && !capabilities.stream_typing_notifications ? [] : [event];
    case 'realm_user':
      // An avatar URL for viewers who cannot see the email to compute it from (SPEC User.avatar_url).
      if (event[AVATAR_FOR_HIDDEN_EMAIL] === true) return [withoutAvatarMarker(event)];
      return [options.clientExtavatar ? withComputedAvatar(event) : event];
    case 'subscription':
      return [event['op'] === 'add' ? subscriptionsForQueue(event, capabilities.notification_settings_null) : event];
    case 'realm_linkifiers':
      // SPEC POST /register, linkifier_url_template: no such events for older clients.
      return capabilities.linkifier_url_template ? [event] : [];
    case 'update_display_settings':
    case 'update_global_notifications':
      // Legacy twins of user_settings, for clients that do not read the settings object.
      return capabilities.user_settings_object ? [] : [event];
    // stream-prefs: the legacy list only for queues that asked for it and not for its successor (api-notes §d).
    case 'muted_topics':
      return options.eventTypes === null || options.eventTypes.includes('user_topic') ? [] : [event];
    default:
      return [event];
  }
}

/** Fields of published events that are for the queues, not for clients. */
const INTERNAL_KEYS = [
  'raw_content',
  'flags_by_user',
  'sender_queue_id',
  'local_message_id',
  'public_stream',
  'inherited_settings',
] as const;

export interface MessageEventPayload extends EventPayload {
  type: 'message';
  /** The message object as the sender sees it, content rendered. */
  message: Record<string, unknown> & NarrowableMessage;
  raw_content: string;
  /** Each recipient's flags, as bits or names. */
  flags_by_user: Record<number, number | string[]>;
  sender_queue_id?: string | undefined;
  local_message_id?: string | undefined;
  /** Also for `all_public_streams` queues (a message to a public stream). */
  public_stream: boolean;
}

function userFlagsIn(event: EventPayload, userId: number): MessageFlag[] | string[] | undefined {
  const byUser = event['flags_by_user'] as Record<number, number | string[]> | undefined;
  const flags = byUser?.[userId];
  if (flags === undefined) return undefined;
  return typeof flags === 'number' ? flagNames(flags) : flags;
}

function withoutInternal(event: EventPayload, extra: Record<string, unknown>): EventPayload {
  const shaped: EventPayload = { ...event, ...extra };
  for (const key of INTERNAL_KEYS) delete shaped[key];
  return shaped;
}

// The message object in each of its four forms, built once per event for all queues.
const variantsOf = new WeakMap<EventPayload, Map<number, Record<string, unknown>>>();

function messageVariant(event: MessageEventPayload, applyMarkdown: boolean, clientExtavatar: boolean): Record<string, unknown> {
  let variants = variantsOf.get(event);
  if (!variants) variantsOf.set(event, (variants = new Map()));
  const key = (applyMarkdown ? 1 : 0) | (clientExtavatar ? 2 : 0);
  let variant = variants.get(key);
  if (!variant) {
    variant = { ...event.message };
    // api-notes §d: the flags travel beside the message, not inside it.
    delete variant['flags'];
    if (!applyMarkdown) {
      variant['content'] = event.raw_content;
      variant['content_type'] = 'text/x-markdown';
    }
    if (clientExtavatar && !isUploadedAvatarUrl(variant['avatar_url'])) variant['avatar_url'] = null;
    variants.set(key, variant);
    shareJson(variant);
  }
  return variant;
}

// The event most queues get, per message variant and set of flags: built once, its JSON made once.
const sharedEventsOf = new WeakMap<Record<string, unknown>, Map<readonly string[], EventPayload>>();

function messageForQueue(queue: EventQueue, event: MessageEventPayload, userId: number): EventPayload[] {
  const stored = event.flags_by_user[userId];
  // Bits name one shared array per set, so equal flags are the same array (the key below).
  const flags = stored === undefined ? NO_FLAGS : typeof stored === 'number' ? sharedFlagNames(stored) : stored;
  const options = queue.options;
  if (options.narrow.length > 0) {
    const viewer = { viewerId: userId, flags: flags as readonly MessageFlag[], publicStream: event.public_stream };
    if (!matchesQueueNarrow(options.narrow, event.message, viewer)) return [];
  }
  const message = messageVariant(event, options.applyMarkdown, options.clientExtavatar);
  // SPEC §Events: the queue that sent the message learns which local echo it was.
  if (event.local_message_id !== undefined && event.sender_queue_id === queue.id) {
    return [{ type: 'message', message, flags, local_message_id: event.local_message_id }];
  }
  let shared = sharedEventsOf.get(message);
  if (!shared) sharedEventsOf.set(message, (shared = new Map()));
  let shaped = shared.get(flags);
  if (!shaped) {
    shared.set(flags, (shaped = { type: 'message', message, flags }));
    shareJson(shaped);
  }
  return [shaped];
}

const NO_FLAGS: readonly MessageFlag[] = Object.freeze([]);

/** Without bulk_message_deletion: one event per message, with `message_id` (SPEC §Events). */
function deletedOneByOne(event: EventPayload): EventPayload[] {
  const ids = (event['message_ids'] as number[] | undefined) ?? [];
  return ids.map((id) => {
    const single: EventPayload = { ...event, message_id: id };
    delete single['message_ids'];
    return single;
  });
}

/**
 * SPEC capability notification_settings_null: a client without it gets a null (inherit)
 * stream notification setting as the user's own setting, which the event carries.
 */
function subscriptionsForQueue(event: EventPayload, nullsAllowed: boolean): EventPayload {
  const inherited = (event['inherited_settings'] ?? {}) as Record<string, boolean>;
  const subscriptions = (event['subscriptions'] as Record<string, unknown>[]).map((sub) => {
    if (nullsAllowed) return sub;
    const resolved = { ...sub };
    for (const [name, value] of Object.entries(inherited)) if (resolved[name] === null) resolved[name] = value;
    return resolved;
  });
  return withoutInternal(event, { subscriptions });
}

// Marks realm_user avatar updates whose recipients cannot see the user's real email.
export const AVATAR_FOR_HIDDEN_EMAIL = 'avatar_for_hidden_email';

function withoutAvatarMarker(event: EventPayload): EventPayload {
  const { [AVATAR_FOR_HIDDEN_EMAIL]: _marker, ...rest } = event;
  return rest;
}

/**
 * client_extavatar (SPEC User.avatar_url): the client computes the external provider's URL
 * itself, so the person's avatar_url is null. No user has an uploaded avatar yet, whose URL
 * would stay.
 */
function withComputedAvatar(event: EventPayload): EventPayload {
  const person = event['person'] as Record<string, unknown> | undefined;
  // An uploaded avatar's URL stays: the client cannot compute it.
  if (!person || !('avatar_url' in person) || isUploadedAvatarUrl(person['avatar_url'])) return event;
  // SPEC User.avatar_url stays when the recipient cannot see the email to compute it from.
  if (person['delivery_email'] === null) return event;
  return { ...event, person: { ...person, avatar_url: null } };
}
