import type { RouteId } from '../src/wire/routes';
import { getServerSettings, postFetchApiKey } from './endpoints/accounts';
import { getMatchesNarrow, getMessages, postFlagsForNarrow } from './endpoints/message-fetch';
import { getMessage, postMessages, postRenderMessage } from './endpoints/messages';
import { getStreams } from './endpoints/streams';
import { postSubscriptions } from './endpoints/subscriptions';
import { postCrashShard, postSleep, postThrow } from './endpoints/test-hooks';
import { getOwnUser, postUsers } from './endpoints/users';
import { deleteAlertWords, getAlertWords, postAlertWords } from './endpoints/alert-words';
import { deleteLinkifier, getLinkifiers, patchLinkifier, postLinkifier } from './endpoints/linkifiers';
import { postCreateUserGroup } from './endpoints/user-groups';
import type { Route } from './lib/route';

/**
 * THE route table: one row per endpoint, keyed by the ids in src/wire/routes.ts (the
 * compiler checks that every id has exactly one row). Handlers live in endpoints/<domain>.ts.
 */
export const ROUTES: Record<RouteId, Route> = {
  // Accounts
  'GET /server_settings': getServerSettings, // endpoints/accounts
  'POST /fetch_api_key': postFetchApiKey, // endpoints/accounts
  'POST /users': postUsers, // endpoints/users
  'GET /users/me': getOwnUser, // endpoints/users
  // Messages
  'POST /messages': postMessages, // endpoints/messages
  'GET /messages/{message_id}': getMessage, // endpoints/messages
  'POST /messages/render': postRenderMessage, // endpoints/messages
  // fetch: narrows, search, flags on a narrow
  'GET /messages': getMessages, // endpoints/message-fetch
  'GET /messages/matches_narrow': getMatchesNarrow, // endpoints/message-fetch
  'POST /messages/flags/narrow': postFlagsForNarrow, // endpoints/message-fetch
  // Streams and subscriptions
  'POST /users/me/subscriptions': postSubscriptions, // endpoints/subscriptions
  'GET /streams': getStreams, // endpoints/streams
  // User groups
  'POST /user_groups/create': postCreateUserGroup, // endpoints/user-groups
  // Alert words
  'GET /users/me/alert_words': getAlertWords, // endpoints/alert-words
  'POST /users/me/alert_words': postAlertWords, // endpoints/alert-words
  'DELETE /users/me/alert_words': deleteAlertWords, // endpoints/alert-words
  // Linkifiers
  'GET /realm/linkifiers': getLinkifiers, // endpoints/linkifiers
  'POST /realm/filters': postLinkifier, // endpoints/linkifiers
  'PATCH /realm/filters/{filter_id}': patchLinkifier, // endpoints/linkifiers
  'DELETE /realm/filters/{filter_id}': deleteLinkifier, // endpoints/linkifiers
  // Test hooks (TEST_HOOKS=1 only)
  'POST /__test__/crash_shard': postCrashShard,
  'POST /__test__/sleep': postSleep,
  'POST /__test__/throw': postThrow,
};
