import type { QueueOptions } from '../events/queue';
import type { UserRow } from './users';
import type { Realm } from '../realm';
import { messagesState } from './register-messages';
import { realmWideState, type Wants } from './register-realm';
import { realmUserSettingsDefaults, userSettingsState } from './register-settings';
import { spectatorStreamsState, streamsState } from './register-streams';
import { peopleState } from './register-users';
import type { RegisterState } from '../schemas/register';

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
 * between the state and the queue. A null user is a spectator: web-public data only.
 */
export function initialState(realm: Realm, user: UserRow | null, request: RegisterRequest): RegisterState {
  const types = request.fetchEventTypes === null ? null : new Set(request.fetchEventTypes);
  const wants: Wants = (type) => types === null || types.has(type);
  const capabilities = request.queue.capabilities;
  const state = realmWideState(realm, wants, capabilities.linkifier_url_template);
  if (user === null) return { ...state, ...spectatorStreamsState(realm, wants) };
  Object.assign(
    state,
    userSettingsState(user, wants, capabilities.user_settings_object),
    peopleState(realm, user, wants, { clientExtavatar: request.queue.clientExtavatar, slimPresence: request.slimPresence }),
    streamsState(realm, user, wants, {
      includeSubscribers: request.includeSubscribers,
      notificationSettingsNull: capabilities.notification_settings_null,
    }),
    messagesState(realm, user, wants),
  );
  if (wants('realm_user_settings_defaults')) state['realm_user_settings_defaults'] = realmUserSettingsDefaults(realm);
  return state;
}
