/**
 * Every API route as `METHOD /path` under /api/v1 (SPEC §Wire conventions 1). The front end
 * matches requests against this list; workers/routes.ts must define exactly these ids (the
 * compiler checks it), so a route is declared in one place and handled in one place.
 */
export const API_ROUTE_IDS = [
  // Accounts (api-notes §b)
  'GET /server_settings',
  // This API's own description, made from the route table
  'GET /openapi.json',
  'POST /fetch_api_key',
  'POST /users',
  'GET /users/me',
  // User reads, personal settings
  'GET /users',
  'GET /users/{user_id_or_email}',
  'PATCH /settings',
  'PATCH /settings/display',
  'PATCH /settings/notifications',
  'GET /settings/email_confirm/{token}',
  // Messages (SPEC §Endpoints)
  'POST /messages',
  'GET /messages/{message_id}',
  'POST /messages/render',
  // fetch: narrows, search, flags on a narrow (api-notes §b, §c)
  'GET /messages',
  'GET /messages/matches_narrow',
  'POST /messages/flags/narrow',
  // Streams and subscriptions
  'POST /users/me/subscriptions',
  'GET /streams',
  // stream-prefs: per-user subscription properties
  'POST /users/me/subscriptions/properties',
  'PATCH /users/me/subscriptions/{stream_id}',
  'POST /user_topics',
  'PATCH /users/me/subscriptions/muted_topics',
  'POST /default_streams',
  'DELETE /default_streams',
  'POST /default_stream_groups/create',
  'PATCH /default_stream_groups/{group_id}',
  'DELETE /default_stream_groups/{group_id}',
  'PATCH /default_stream_groups/{group_id}/streams',
  // stream-writes: unsubscribing, updating and archiving streams
  'DELETE /users/me/subscriptions',
  'PATCH /streams/{stream_id}',
  'DELETE /streams/{stream_id}',
  // User groups
  'POST /user_groups/create',
  // User groups (openapi get-user-groups ... get-is-user-group-member)
  'GET /user_groups',
  'PATCH /user_groups/{user_group_id}',
  'DELETE /user_groups/{user_group_id}',
  'POST /user_groups/{user_group_id}/members',
  'GET /user_groups/{user_group_id}/members',
  'GET /user_groups/{user_group_id}/members/{user_id}',
  'POST /user_groups/{user_group_id}/subgroups',
  'GET /user_groups/{user_group_id}/subgroups',
  // Drafts (openapi get-drafts, create-drafts, edit-draft, delete-draft)
  'GET /drafts',
  'POST /drafts',
  'PATCH /drafts/{draft_id}',
  'DELETE /drafts/{draft_id}',
  // Code playgrounds (SPEC POST /realm/playgrounds)
  'POST /realm/playgrounds',
  'DELETE /realm/playgrounds/{playground_id}',
  // Custom profile fields and users' values (openapi get-custom-profile-fields ...)
  'GET /realm/profile_fields',
  'POST /realm/profile_fields',
  'PATCH /realm/profile_fields',
  'PATCH /realm/profile_fields/{field_id}',
  'DELETE /realm/profile_fields/{field_id}',
  'PATCH /users/me/profile_data',
  'DELETE /users/me/profile_data',
  // Alert words
  'GET /users/me/alert_words',
  'POST /users/me/alert_words',
  'DELETE /users/me/alert_words',
  // Linkifiers (realm settings)
  'GET /realm/linkifiers',
  'POST /realm/filters',
  'PATCH /realm/filters/{filter_id}',
  'DELETE /realm/filters/{filter_id}',
  // Scheduled messages (SPEC POST /scheduled_messages, api-notes §b)
  'GET /scheduled_messages',
  'POST /scheduled_messages',
  'PATCH /scheduled_messages/{scheduled_message_id}',
  'DELETE /scheduled_messages/{scheduled_message_id}',
  // Reactions, flags, mark-as-read, read receipts (api-notes §b)
  'POST /messages/{message_id}/reactions',
  'DELETE /messages/{message_id}/reactions',
  'POST /messages/flags',
  'POST /mark_all_as_read',
  'POST /mark_stream_as_read',
  'POST /mark_topic_as_read',
  'GET /messages/{message_id}/read_receipts',
  // edit: editing, moving, history and deleting messages and topics
  'PATCH /messages/{message_id}',
  'GET /messages/{message_id}/history',
  'DELETE /messages/{message_id}',
  'POST /streams/{stream_id}/delete_topic',
  // events: register, the event queue, typing (SPEC POST /register, §Events; api-notes §b)
  'POST /register',
  'GET /events',
  'DELETE /events',
  // typing: POST /typing (SPEC POST /typing)
  'POST /typing',
  // stream-reads: the stream domain's reads (openapi get-subscriptions, get-stream-by-id, ...)
  'GET /users/me/subscriptions',
  'GET /users/{user_id}/subscriptions/{stream_id}',
  'GET /streams/{stream_id}',
  'GET /get_stream_id',
  'GET /streams/{stream_id}/members',
  'GET /users/me/{stream_id}/topics',
  // legacy: what zulip-js still offers though the public API removed it
  'GET /realm/filters',
  'GET /users/me/pointer',
  'POST /users/me/pointer',
  // account administration, API keys, bots, muted users
  'PATCH /users/{user_id}',
  'DELETE /users/{user_id}',
  'POST /users/{user_id}/reactivate',
  'DELETE /users/me',
  'POST /users/me/api_key/regenerate',
  'POST /bots',
  'GET /bots',
  'PATCH /bots/{bot_id}',
  'DELETE /bots/{bot_id}',
  // bot storage: a bot's own keys and values (the Python client's bot library)
  'GET /bot_storage',
  'PUT /bot_storage',
  'DELETE /bot_storage',
  'POST /users/me/muted_users/{muted_user_id}',
  'DELETE /users/me/muted_users/{muted_user_id}',
  // Uploads, attachments, avatars, realm emoji (api-notes POST /user_uploads, GET /attachments)
  'POST /user_uploads',
  'GET /user_uploads/{realm_id}/{dir}/{random}/{filename}',
  'GET /attachments',
  'DELETE /attachments/{attachment_id}',
  'POST /users/me/avatar',
  'DELETE /users/me/avatar',
  'GET /realm/emoji',
  'POST /realm/emoji/{emoji_name}',
  'DELETE /realm/emoji/{emoji_name}',
  // Status, presence, realm settings
  'PATCH /realm',
  'PATCH /realm/user_settings_defaults',
  'POST /users/me/status',
  'GET /users/{user_id}/status',
  'POST /users/me/presence',
  'GET /realm/presence',
  'GET /users/{user_id_or_email}/presence',
] as const;

/**
 * Routes that may hold a request until there is news (api-notes §b GET /events): the shard
 * answers them within a heartbeat interval, so the front end's request timeout starts after it.
 */
export const LONG_POLL_ROUTE_IDS: readonly RouteId[] = ['GET /events'];

export type ApiRouteId = (typeof API_ROUTE_IDS)[number];

/** Reachable only when the server runs with TEST_HOOKS=1 (see src/config.ts). */
export const TEST_ROUTE_IDS = [
  'POST /__test__/crash_shard',
  'POST /__test__/sleep',
  'POST /__test__/throw',
  'POST /__test__/render_hold',
  'POST /__test__/move_recent_rows',
  'POST /__test__/sync_hold',
  'GET /__test__/sleepers',
  'POST /__test__/spin',
  'POST /__test__/hog',
  'POST /__test__/exit',
  // What kept the realm's shard thread busy (bench/mixed.ts)
  'GET /__test__/shard_stats',
  'POST /__test__/broken_contract',
] as const;

export type TestRouteId = (typeof TEST_ROUTE_IDS)[number];

/**
 * Routes served at the root, outside /api/v1 (api-notes §a tail, POST /user_uploads).
 * Their ids carry ROOT_PATH_MARK before the path, so an id never equals an API route's id
 * (GET /user_uploads/... exists in both places); the front end matches `mark + url`.
 */
export const ROOT_PATH_MARK = '/~';

export const ROOT_ROUTE_IDS = [
  'GET /~/user_uploads/{realm_id}/{dir}/{random}/{filename}',
  'GET /~/user_uploads/temporary/{token}/{filename}',
  'GET /~/avatar/{email_or_id}',
  'GET /~/avatar/{email_or_id}/medium',
  'GET /~/user_avatars/{realm_id}/{avatar_file}',
  'GET /~/user_avatars/{realm_id}/emoji/images/{emoji_file}',
  'GET /~/user_avatars/{realm_id}/emoji/images/still/{emoji_file}',
  // The renderer's image previews of uploads point here (workers/markdown/url.ts).
  'GET /~/thumbnail',
  // The web page signs in and out here (issue 10 "Signing in"): a session cookie, not an API key.
  'POST /~/login',
  'POST /~/logout',
] as const;

export type RootRouteId = (typeof ROOT_ROUTE_IDS)[number];

export type RouteId = ApiRouteId | TestRouteId | RootRouteId;

export interface RouteMatch {
  route: RouteId;
  pathParams: Record<string, string>;
}

export type MatchResult =
  { kind: 'found'; match: RouteMatch } | { kind: 'method_not_allowed'; allowedMethods: string[] } | { kind: 'not_found' };

interface CompiledRoute {
  id: RouteId;
  method: string;
  segments: string[];
}

/** Matches `/path` (already stripped of /api/v1) and a method against a set of route ids. */
export class RouteMatcher {
  private readonly staticRoutes = new Map<string, Map<string, RouteId>>();
  private readonly dynamicRoutes: CompiledRoute[] = [];

  constructor(ids: readonly RouteId[]) {
    for (const id of ids) {
      const space = id.indexOf(' ');
      const method = id.slice(0, space);
      const path = id.slice(space + 1);
      if (path.includes('{')) {
        this.dynamicRoutes.push({ id, method, segments: path.split('/') });
      } else {
        let byMethod = this.staticRoutes.get(path);
        if (!byMethod) this.staticRoutes.set(path, (byMethod = new Map()));
        byMethod.set(method, id);
      }
    }
  }

  /** Whether a path's first segments could belong to one of this matcher's routes. */
  hasPrefixFor(path: string): boolean {
    const [, first, second] = path.split('/');
    if (this.staticRoutes.has(`/${first}/${second}`)) return true;
    return this.dynamicRoutes.some((route) => route.segments[1] === first && route.segments[2] === second);
  }

  match(method: string, path: string): MatchResult {
    // Clients differ on a trailing slash; the public API ignores it.
    const normalized = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const byMethod = this.staticRoutes.get(normalized);
    if (byMethod) {
      const id = byMethod.get(method);
      if (id) return { kind: 'found', match: { route: id, pathParams: {} } };
    }
    const allowed = byMethod ? [...byMethod.keys()] : [];
    const segments = normalized.split('/');
    for (const route of this.dynamicRoutes) {
      const pathParams = matchSegments(route.segments, segments);
      if (!pathParams) continue;
      if (route.method === method) return { kind: 'found', match: { route: route.id, pathParams } };
      allowed.push(route.method);
    }
    if (allowed.length > 0) return { kind: 'method_not_allowed', allowedMethods: [...new Set(allowed)].sort() };
    return { kind: 'not_found' };
  }
}

function matchSegments(template: string[], actual: string[]): Record<string, string> | null {
  if (template.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const want = template[i] as string;
    const got = actual[i] as string;
    if (want.startsWith('{')) {
      if (got === '') return null;
      try {
        params[want.slice(1, -1)] = decodeURIComponent(got);
      } catch {
        return null;
      }
    } else if (want !== got) {
      return null;
    }
  }
  return params;
}
