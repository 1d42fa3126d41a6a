import { z } from 'zod';
import { checkQueueNarrow } from '../events/narrow-filter';
import { CAPABILITY_NAMES, type ClientCapabilities, type EventQueue, type QueueOptions } from '../events/queue';
import { errors } from '../lib/errors';
import { MAX_NARROW_TERMS } from '../lib/narrow';
import { json, param } from '../lib/params';
import { ROLE } from '../lib/roles';
import { optionalUserRoute, userRoute, type UserContext } from '../lib/route';
import { SERVICE_FEATURE_LEVEL, SERVICE_MERGE_BASE, SERVICE_VERSION } from '../lib/version';
import { initialState } from '../queries/register';
import { spectatorAccessEnabled } from '../queries/realm-settings';
import type { UserRow } from '../queries/users';
import { clientEventSchema } from '../events/types';
import { eventsJson } from '../events/shared-json';
import { serialized } from '../lib/contract';
import { EMPTY } from '../schemas/objects';
import { registerResultSchema } from '../schemas/register';

const typeList = () => json(z.array(z.string()).optional());

/** The parameters that shape a queue: POST /register, and GET /events making one on the fly. */
const queueParams = {
  apply_markdown: param.bool(false),
  client_extavatar: param.optionalBool(),
  event_types: typeList(),
  all_public_streams: param.bool(false),
  client_capabilities: json(z.record(z.string(), z.unknown()).optional()),
  narrow: json(
    z
      .array(z.tuple([z.string(), z.string()]))
      .max(MAX_NARROW_TERMS)
      .default([]),
  ),
};

type QueueParams = z.output<z.ZodObject<typeof queueParams>>;

function queueOptions(p: QueueParams, user: UserRow | null): QueueOptions {
  checkQueueNarrow(p.narrow);
  // Guests cannot read public streams they are not in (api-notes §e all_public_streams).
  if (p.all_public_streams && user?.role === ROLE.GUEST) throw errors.notAuthorizedForQuery();
  const declared = p.client_capabilities ?? {};
  const capabilities = Object.fromEntries(CAPABILITY_NAMES.map((name) => [name, declared[name] === true])) as unknown as ClientCapabilities;
  return {
    eventTypes: p.event_types ?? null,
    applyMarkdown: p.apply_markdown,
    clientExtavatar: p.client_extavatar ?? user !== null,
    allPublicStreams: p.all_public_streams,
    narrow: p.narrow,
    capabilities,
  };
}

const versionKeys = {
  service_feature_level: SERVICE_FEATURE_LEVEL,
  service_version: SERVICE_VERSION,
  service_merge_base: SERVICE_MERGE_BASE,
};

/**
 * POST /register (SPEC): a new event queue and the state it continues from. Without
 * credentials, in a realm open to spectators, only web-public state and no queue
 * (SPEC §Authentication 3).
 */
export const postRegister = optionalUserRoute(
  z.object({
    ...queueParams,
    include_subscribers: param.bool(false),
    slim_presence: param.bool(false),
    fetch_event_types: typeList(),
  }),
  registerResultSchema,
  ({ realm, user }, p) => {
    if (user === null) {
      if (!spectatorAccessEnabled(realm)) throw errors.notLoggedIn();
      if (p.client_extavatar === true) throw errors.invalidForAnonymous('client_extavatar');
      if (p.include_subscribers) throw errors.invalidForAnonymous('include_subscribers');
    }
    const options = queueOptions(p, user);
    const state = initialState(realm, user, {
      fetchEventTypes: p.fetch_event_types ?? p.event_types ?? null,
      includeSubscribers: p.include_subscribers,
      slimPresence: p.slim_presence,
      queue: options,
    });
    const queueId = user === null ? null : realm.eventQueues.register(user.id, options).id;
    return { queue_id: queueId, last_event_id: -1 as const, ...versionKeys, ...state };
  },
);

function ownQueue({ realm, user }: UserContext, queueId: string): EventQueue {
  const queue = realm.eventQueues.find(queueId, user.id);
  if (!queue) throw errors.badEventQueueId(queueId);
  return queue;
}

/**
 * GET /events (api-notes §b): the events after `last_event_id`, which are acknowledged up to
 * it; an empty queue holds the poll until an event or a heartbeat. With `dont_block` and no
 * `queue_id`, a queue is made on the spot from register-style parameters.
 */
export const getEvents = userRoute(
  z.object({
    queue_id: z.string().optional(),
    last_event_id: param.optionalInt(),
    dont_block: param.bool(false),
    ...queueParams,
  }),
  z.strictObject({ events: serialized(z.array(clientEventSchema)), queue_id: z.string().optional() }),
  (ctx, p) => {
    const queues = ctx.realm.eventQueues;
    if (p.queue_id === undefined) {
      if (!p.dont_block) throw errors.missingArgument('queue_id');
      const queue = queues.register(ctx.user.id, queueOptions(p, ctx.user));
      return { events: eventsJson([]), queue_id: queue.id };
    }
    const queue = ownQueue(ctx, p.queue_id);
    if (p.last_event_id === undefined) {
      throw errors.missingArgument('last_event_id');
    }
    queue.acknowledge(p.last_event_id);
    queues.touch(queue);
    if (!queue.isEmpty || p.dont_block) return { events: eventsJson(queue.queued) };
    // Not an async function: the parked poll keeps only its waiter (events/clients.ts), not the request.
    return queues.wait(queue, ctx.frame.id);
  },
);

/** DELETE /events: the caller's queue goes away; a poll parked on it is answered. */
export const deleteEvents = userRoute(z.object({ queue_id: z.string() }), EMPTY, (ctx, p) => {
  ctx.realm.eventQueues.remove(ownQueue(ctx, p.queue_id));
  return {};
});
