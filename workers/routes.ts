import type { RouteId } from '../src/wire/routes';
import { getServerSettings, postFetchApiKey } from './endpoints/accounts';
import { getMessage, postMessages, postRenderMessage } from './endpoints/messages';
import { getStreams } from './endpoints/streams';
import { postSubscriptions } from './endpoints/subscriptions';
import { postCrashShard, postSleep, postThrow } from './endpoints/test-hooks';
import { getOwnUser, postUsers } from './endpoints/users';
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
  // Streams and subscriptions
  'POST /users/me/subscriptions': postSubscriptions, // endpoints/subscriptions
  'GET /streams': getStreams, // endpoints/streams
  // Test hooks (TEST_HOOKS=1 only)
  'POST /__test__/crash_shard': postCrashShard,
  'POST /__test__/sleep': postSleep,
  'POST /__test__/throw': postThrow,
};
