import type { QueueOptions } from '../events/queue';
import type { UserRow } from './users';
import type { Realm } from '../realm';

/** What POST /register asked for beyond the queue's own options (SPEC POST /register). */
export interface RegisterRequest {
  /** The data types to fetch: `fetch_event_types`, else `event_types`, else null for all. */
  fetchEventTypes: readonly string[] | null;
  includeSubscribers: boolean;
  slimPresence: boolean;
  queue: QueueOptions;
}

/**
 * The initial state of each requested data type (SPEC §Register response, api-notes §e),
 * read in the same turn of the event loop as the queue is created, so no event falls
 * between the state and the queue.
 */
export function initialState(_realm: Realm, _user: UserRow | null, _request: RegisterRequest): Record<string, unknown> {
  return {};
}
