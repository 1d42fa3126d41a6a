import {
  ADMINS,
  AUTHENTICATION_FAILED,
  except,
  HUMAN_MEMBERS,
  INSUFFICIENT,
  INVALID_MESSAGE,
  INVALID_STREAM,
  MUST_BE_ADMIN,
  NOT_LOGGED_IN,
  NO_DELETE,
  NO_EDIT,
  NOT_FOR_QUERY,
  PRIVATE_READERS,
  PUBLIC_READERS,
  REALM_DEACTIVATED,
  refusal,
  success,
  USER_DEACTIVATED,
  type Rule,
} from './rules';

/**
 * Accounts, messages, streams and user groups: who may call each route (SPEC §Authentication 4,
 * §Errors; the reference OpenAPI's x-requires-administrator; api-notes §b, §f). A key
 * `METHOD /path · variant` calls the same route on another object.
 */
export const MESSAGE_AND_STREAM_RULES: Record<string, Rule> = {
  'GET /server_settings': { open: true },
  'GET /openapi.json': { open: true },
  'POST /fetch_api_key': {
    open: true,
    // Each caller signs in with its own email and password (the owner's when it has none).
    params: (_f, who) => ({ username: who.credentials?.email ?? 'nobody@example.com', password: who.password ?? 'wrong' }),
    refused: {
      admin: AUTHENTICATION_FAILED,
      moderator: AUTHENTICATION_FAILED,
      member: AUTHENTICATION_FAILED,
      guest: AUTHENTICATION_FAILED,
      bot: AUTHENTICATION_FAILED,
    },
    others: {
      deactivated: USER_DEACTIVATED,
      deactivatedRealm: REALM_DEACTIVATED,
      otherRealm: AUTHENTICATION_FAILED,
      spectator: AUTHENTICATION_FAILED,
    },
  },
  'POST /users': {
    params: (f) => ({ email: `${f.unique('new')}@example.com`, password: 'pw-new-123456', full_name: 'New person' }),
    refused: except(ADMINS, MUST_BE_ADMIN),
  },
  'GET /users/me': {},
  'GET /users': {},
  'GET /users/{user_id_or_email}': { path: (f) => `/users/${f.users.owner}` },
  'PATCH /settings': { params: () => ({ twenty_four_hour_time: true }) },
  'PATCH /settings/display': { params: () => ({ twenty_four_hour_time: true }) },
  'PATCH /settings/notifications': { params: () => ({ enable_sounds: true }) },
  'GET /settings/email_confirm/{token}': { open: true, path: () => '/settings/email_confirm/no-such-token' },
  'POST /messages': { params: (f) => ({ type: 'stream', to: f.streams.guests, topic: 'matrix', content: 'from the matrix' }) },
  'GET /messages/{message_id}': { path: (f) => `/messages/${f.messages.public}`, refused: except(PUBLIC_READERS, INVALID_MESSAGE) },
  'GET /messages/{message_id} · private': {
    path: (f) => `/messages/${f.messages.private}`,
    refused: except(PRIVATE_READERS, INVALID_MESSAGE),
  },
  // Protected history: a subscriber who joined later may not read what came before (SPEC Stream).
  'GET /messages/{message_id} · protected history': {
    path: (f) => `/messages/${f.messages.protected}`,
    refused: except(['owner'], INVALID_MESSAGE),
  },
  'PATCH /messages/{message_id}': {
    path: (f) => `/messages/${f.messages.guests}`,
    params: () => ({ content: 'edited' }),
    refused: except(['owner'], NO_EDIT),
  },
  'PATCH /messages/{message_id} · private': {
    path: (f) => `/messages/${f.messages.private}`,
    params: () => ({ topic: 'moved' }),
    refused: { ...except(PRIVATE_READERS, INVALID_MESSAGE) },
  },
  'POST /messages/render': { params: () => ({ content: '**hi**' }) },
  // A spectator reads web-public streams only, and must say so in the narrow (openapi get-messages).
  'GET /messages': {
    spectators: true,
    params: () => ({ anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'streams', operand: 'web-public' }] }),
  },
  'GET /messages · private': {
    spectators: true,
    others: { spectator: NOT_LOGGED_IN },
    params: (f) => ({ anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'stream', operand: f.streams.private }] }),
  },
  'GET /messages · everything': {
    spectators: true,
    others: { spectator: NOT_LOGGED_IN },
    params: () => ({ anchor: 'newest', num_before: 50, num_after: 0 }),
  },
  'GET /messages · protected history': {
    spectators: true,
    others: { spectator: NOT_LOGGED_IN },
    params: (f) => ({ anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'stream', operand: f.streams.protected }] }),
  },
  'GET /messages · search': {
    spectators: true,
    others: { spectator: NOT_LOGGED_IN },
    params: () => ({ anchor: 'newest', num_before: 50, num_after: 0, narrow: [{ operator: 'search', operand: 'mark' }] }),
  },
  'GET /messages/matches_narrow · search': {
    params: (f) => ({
      msg_ids: [f.messages.public, f.messages.private, f.messages.protected],
      narrow: [{ operator: 'search', operand: 'mark' }],
    }),
    isolation: success({ messages: {} }),
  },
  'GET /messages/matches_narrow': {
    params: (f) => ({ msg_ids: [f.messages.public, f.messages.private], narrow: [] }),
    isolation: success({ messages: {} }),
  },
  'POST /messages/flags/narrow': { params: () => ({ anchor: 'newest', num_before: 5, num_after: 0, op: 'add', flag: 'read', narrow: [] }) },
  'POST /users/me/subscriptions': { params: (f) => ({ subscriptions: [{ name: f.streamNames.guests }] }) },
  // SPEC §Errors 4: a private stream the caller cannot access, an error without a code.
  'POST /users/me/subscriptions · private': {
    params: (f) => ({ subscriptions: [{ name: f.streamNames.private }] }),
    refused: except(PRIVATE_READERS, refusal(400, 'Unable to access stream (matrix-private).', null)),
  },
  'DELETE /users/me/subscriptions': { params: () => ({ subscriptions: ['matrix-nowhere'] }) },
  'GET /users/me/subscriptions': {},
  'GET /streams': {},
  // SPEC GET /streams: include_all_active needs administrative privileges.
  'GET /streams · all active': { params: () => ({ include_all_active: true }), refused: except(ADMINS, NOT_FOR_QUERY) },
  'POST /users/me/subscriptions/properties': {
    params: (f) => ({ subscription_data: [{ stream_id: f.streams.guests, property: 'color', value: '#aabbcc' }] }),
  },
  'PATCH /users/me/subscriptions/{stream_id}': {
    path: (f) => `/users/me/subscriptions/${f.streams.guests}`,
    params: () => ({ property: 'color', value: '#aabbcc' }),
  },
  'POST /user_topics': { params: (f) => ({ stream_id: f.streams.guests, topic: 'matrix', visibility_policy: 1 }) },
  'POST /user_topics · private': {
    params: (f) => ({ stream_id: f.streams.private, topic: 'matrix', visibility_policy: 1 }),
    refused: except(PRIVATE_READERS, INVALID_STREAM),
  },
  'PATCH /users/me/subscriptions/muted_topics': { params: (f) => ({ stream_id: f.streams.guests, topic: 'matrix', op: 'add' }) },
  'POST /default_streams': { params: (f) => ({ stream_id: f.streams.public }), refused: except(ADMINS, MUST_BE_ADMIN) },
  'DELETE /default_streams': { params: (f) => ({ stream_id: f.streams.public }), refused: except(ADMINS, MUST_BE_ADMIN) },
  'POST /default_stream_groups/create': {
    params: (f) => ({ group_name: f.unique('dsg'), description: 'd', stream_names: [f.streamNames.public] }),
    refused: except(ADMINS, MUST_BE_ADMIN),
  },
  'PATCH /default_stream_groups/{group_id}': {
    path: (f) => `/default_stream_groups/${f.defaultStreamGroup}`,
    params: () => ({ new_description: 'changed' }),
    refused: except(ADMINS, MUST_BE_ADMIN),
  },
  'PATCH /default_stream_groups/{group_id}/streams': {
    path: (f) => `/default_stream_groups/${f.defaultStreamGroup}/streams`,
    params: (f) => ({ op: 'add', stream_names: [f.streamNames.guests] }),
    refused: except(ADMINS, MUST_BE_ADMIN),
  },
  'DELETE /default_stream_groups/{group_id}': {
    path: (f) => `/default_stream_groups/${f.doomedDefaultStreamGroup}`,
    refused: except(ADMINS, MUST_BE_ADMIN),
  },
  // SPEC §Authentication 4: updating a stream needs an organization administrator.
  'PATCH /streams/{stream_id}': {
    path: (f) => `/streams/${f.streams.public}`,
    params: () => ({ description: 'changed' }),
    refused: except(ADMINS, MUST_BE_ADMIN),
  },
  'DELETE /streams/{stream_id}': { path: (f) => `/streams/${f.streams.doomed}`, refused: except(ADMINS, MUST_BE_ADMIN) },
  'GET /streams/{stream_id}': { path: (f) => `/streams/${f.streams.public}`, refused: except(PUBLIC_READERS, INVALID_STREAM) },
  'GET /streams/{stream_id} · private': { path: (f) => `/streams/${f.streams.private}`, refused: except(PRIVATE_READERS, INVALID_STREAM) },
  'POST /user_groups/create': {
    params: (f) => ({ name: f.unique('group'), description: 'd', members: [f.users.owner] }),
    refused: HUMAN_MEMBERS,
  },
  'GET /user_groups': { refused: HUMAN_MEMBERS },
  // A group's own members, moderators and administrators may change it (api-notes §b).
  'PATCH /user_groups/{user_group_id}': {
    path: (f) => `/user_groups/${f.group}`,
    params: () => ({ description: 'changed' }),
    refused: { ...HUMAN_MEMBERS, member: INSUFFICIENT },
  },
  'POST /user_groups/{user_group_id}/members': {
    path: (f) => `/user_groups/${f.group}/members`,
    params: (f) => ({ add: [f.users.victim] }),
    refused: { ...HUMAN_MEMBERS, member: INSUFFICIENT },
  },
  'GET /user_groups/{user_group_id}/members': { path: (f) => `/user_groups/${f.group}/members` },
  'GET /user_groups/{user_group_id}/members/{user_id}': { path: (f) => `/user_groups/${f.group}/members/${f.users.owner}` },
  'POST /user_groups/{user_group_id}/subgroups': {
    path: (f) => `/user_groups/${f.group}/subgroups`,
    params: (f) => ({ add: [f.doomedGroup] }),
    refused: { ...HUMAN_MEMBERS, member: INSUFFICIENT },
  },
  'GET /user_groups/{user_group_id}/subgroups': { path: (f) => `/user_groups/${f.group}/subgroups` },
  'DELETE /user_groups/{user_group_id}': {
    path: (f) => `/user_groups/${f.doomedGroup}`,
    refused: { ...HUMAN_MEMBERS, member: INSUFFICIENT },
  },
  'DELETE /messages/{message_id}': { path: (f) => `/messages/${f.messages.doomed}`, refused: except(ADMINS, NO_DELETE) },
  // SPEC §Errors: deleting a topic needs an administrator (UNAUTHORIZED_PRINCIPAL).
  'POST /streams/{stream_id}/delete_topic': {
    path: (f) => `/streams/${f.streams.public}/delete_topic`,
    params: () => ({ topic_name: 'doomed topic' }),
    refused: except(ADMINS, MUST_BE_ADMIN),
  },
};
