import {
  ADMINS,
  badQueue,
  except,
  INSUFFICIENT,
  INVALID_ATTACHMENT,
  INVALID_MESSAGE,
  INVALID_STREAM,
  MUST_BE_ADMIN,
  MUST_BE_BOT,
  MUST_BE_OWNER,
  NO_BOTS,
  NO_DRAFT,
  NO_FILE,
  NO_SCHEDULED,
  NOT_EMOJI_AUTHOR,
  NOT_FOR_GUESTS,
  PRIVATE_READERS,
  PUBLIC_READERS,
  refusal,
  success,
  type Rule,
} from './rules';

const HUMANS_BUT_BOTS = { bot: NO_BOTS } as const;
const NO_BOT_MANAGERS = { guest: NOT_FOR_GUESTS, bot: NO_BOTS } as const;

/**
 * Personal data, realm administration, events, files and presence: who may call each route
 * (same sources as table-messages.ts). Drafts, scheduled messages, attachments and event queues
 * belong to realm A's owner: nobody else may read or change them.
 */
export const SETTINGS_AND_ADMIN_RULES: Record<string, Rule> = {
  'GET /drafts': {},
  'POST /drafts': {
    params: (f) => ({ drafts: [{ type: 'stream', to: [f.streams.guests], topic: 't', content: 'd', timestamp: 1_700_000_000 }] }),
  },
  'PATCH /drafts/{draft_id}': {
    path: (f) => `/drafts/${f.drafts.kept}`,
    params: (f) => ({ draft: { type: 'stream', to: [f.streams.guests], topic: 't', content: 'changed', timestamp: 1_700_000_001 } }),
    refused: except(['owner'], NO_DRAFT),
  },
  'DELETE /drafts/{draft_id}': { path: (f) => `/drafts/${f.drafts.doomed}`, refused: except(['owner'], NO_DRAFT) },
  'POST /realm/playgrounds': {
    params: (f) => ({ name: f.unique('Playground'), lexer_language: 'python', url_prefix: 'https://example.com/' }),
    refused: except(ADMINS, MUST_BE_ADMIN),
  },
  'DELETE /realm/playgrounds/{playground_id}': {
    path: (f) => `/realm/playgrounds/${f.playground}`,
    refused: except(ADMINS, MUST_BE_ADMIN),
  },
  'GET /realm/profile_fields': {},
  'POST /realm/profile_fields': { params: (f) => ({ name: f.unique('Field'), field_type: 1 }), refused: except(ADMINS, MUST_BE_ADMIN) },
  'PATCH /realm/profile_fields': {
    params: (f) => ({ order: [f.profileFields.kept, f.profileFields.doomed] }),
    refused: except(ADMINS, MUST_BE_ADMIN),
    // Every field of the realm must be in the order; IDs of no field are passed over (the public API's rule).
    isolation: success(),
  },
  'PATCH /realm/profile_fields/{field_id}': {
    path: (f) => `/realm/profile_fields/${f.profileFields.kept}`,
    params: (f) => ({ name: f.unique('Renamed') }),
    refused: except(ADMINS, MUST_BE_ADMIN),
  },
  'PATCH /users/me/profile_data': { params: (f) => ({ data: [{ id: f.profileFields.kept, value: 'x' }] }), refused: HUMANS_BUT_BOTS },
  'DELETE /users/me/profile_data': { params: (f) => ({ data: [f.profileFields.kept] }), refused: HUMANS_BUT_BOTS },
  'DELETE /realm/profile_fields/{field_id}': {
    path: (f) => `/realm/profile_fields/${f.profileFields.doomed}`,
    refused: except(ADMINS, MUST_BE_ADMIN),
  },
  'GET /users/me/alert_words': {},
  'POST /users/me/alert_words': { params: () => ({ alert_words: ['matrix'] }) },
  'DELETE /users/me/alert_words': { params: () => ({ alert_words: ['matrix'] }) },
  'GET /realm/linkifiers': {},
  'GET /realm/filters': {},
  'POST /realm/filters': {
    params: (f) => ({ pattern: `${f.unique('NEW')}-(?P<id>[0-9]+)`, url_template: 'https://example.com/{id}' }),
    refused: except(ADMINS, MUST_BE_ADMIN),
  },
  'PATCH /realm/filters/{filter_id}': {
    path: (f) => `/realm/filters/${f.linkifiers.kept}`,
    params: (f) => ({ pattern: `${f.unique('CHANGED')}-(?P<id>[0-9]+)`, url_template: 'https://example.com/{id}' }),
    refused: except(ADMINS, MUST_BE_ADMIN),
  },
  'DELETE /realm/filters/{filter_id}': { path: (f) => `/realm/filters/${f.linkifiers.doomed}`, refused: except(ADMINS, MUST_BE_ADMIN) },
  'GET /scheduled_messages': {},
  'POST /scheduled_messages': {
    params: (f) => ({
      type: 'stream',
      to: f.streams.guests,
      topic: 't',
      content: 'later',
      scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 86_400,
    }),
  },
  'PATCH /scheduled_messages/{scheduled_message_id}': {
    path: (f) => `/scheduled_messages/${f.scheduled.kept}`,
    params: () => ({ content: 'changed' }),
    refused: except(['owner'], NO_SCHEDULED),
  },
  'DELETE /scheduled_messages/{scheduled_message_id}': {
    path: (f) => `/scheduled_messages/${f.scheduled.doomed}`,
    refused: except(['owner'], NO_SCHEDULED),
  },
  'POST /messages/{message_id}/reactions': {
    path: (f) => `/messages/${f.messages.guests}/reactions`,
    params: () => ({ emoji_name: 'smile' }),
  },
  'POST /messages/{message_id}/reactions · private': {
    path: (f) => `/messages/${f.messages.private}/reactions`,
    params: () => ({ emoji_name: 'smile' }),
    refused: except(PRIVATE_READERS, INVALID_MESSAGE),
  },
  'DELETE /messages/{message_id}/reactions': {
    path: (f) => `/messages/${f.messages.guests}/reactions`,
    params: () => ({ emoji_name: 'smile' }),
  },
  'DELETE /messages/{message_id}/reactions · private': {
    path: (f) => `/messages/${f.messages.private}/reactions`,
    params: () => ({ emoji_name: 'smile' }),
    refused: except(PRIVATE_READERS, INVALID_MESSAGE),
  },
  'POST /messages/flags': { params: (f) => ({ messages: [f.messages.guests], op: 'add', flag: 'starred' }) },
  'POST /messages/flags · private': {
    params: (f) => ({ messages: [f.messages.private], op: 'add', flag: 'starred' }),
    refused: except(PRIVATE_READERS, INVALID_MESSAGE),
  },
  'POST /mark_all_as_read': {},
  'POST /mark_stream_as_read': { params: (f) => ({ stream_id: f.streams.guests }) },
  'POST /mark_stream_as_read · private': {
    params: (f) => ({ stream_id: f.streams.private }),
    refused: except(PRIVATE_READERS, INVALID_STREAM),
  },
  'POST /mark_topic_as_read': { params: (f) => ({ stream_id: f.streams.guests, topic_name: 'matrix' }) },
  'GET /messages/{message_id}/read_receipts': { path: (f) => `/messages/${f.messages.guests}/read_receipts` },
  'GET /messages/{message_id}/read_receipts · private': {
    path: (f) => `/messages/${f.messages.private}/read_receipts`,
    refused: except(PRIVATE_READERS, INVALID_MESSAGE),
  },
  'GET /messages/{message_id}/history': {
    path: (f) => `/messages/${f.messages.public}/history`,
    refused: except(PUBLIC_READERS, INVALID_MESSAGE),
  },
  'GET /messages/{message_id}/history · protected history': {
    path: (f) => `/messages/${f.messages.protected}/history`,
    refused: except(['owner'], INVALID_MESSAGE),
  },
  'GET /messages/{message_id}/read_receipts · protected history': {
    path: (f) => `/messages/${f.messages.protected}/read_receipts`,
    refused: except(['owner'], INVALID_MESSAGE),
  },
  'GET /messages/{message_id}/history · private': {
    path: (f) => `/messages/${f.messages.private}/history`,
    refused: except(PRIVATE_READERS, INVALID_MESSAGE),
  },
  'POST /register': { spectators: true, params: () => ({ event_types: ['message'] }) },
  'GET /events': {
    params: (f) => ({ queue_id: f.queues.kept, last_event_id: -1, dont_block: true }),
    refused: (f) => except(['owner'], badQueue(f.queues.kept)),
  },
  'DELETE /events': { params: (f) => ({ queue_id: f.queues.doomed }), refused: (f) => except(['owner'], badQueue(f.queues.doomed)) },
  'POST /typing': { params: (f) => ({ op: 'start', type: 'direct', to: [f.users.owner] }) },
  'GET /users/{user_id}/subscriptions/{stream_id}': {
    path: (f) => `/users/${f.users.owner}/subscriptions/${f.streams.private}`,
    refused: except(PRIVATE_READERS, INVALID_STREAM),
  },
  'GET /get_stream_id': {
    params: (f) => ({ stream: f.streamNames.private }),
    refused: except(PRIVATE_READERS, refusal(400, "Invalid stream name 'matrix-private'")),
  },
  'GET /streams/{stream_id}/members': {
    path: (f) => `/streams/${f.streams.public}/members`,
    refused: except(PUBLIC_READERS, INVALID_STREAM),
  },
  'GET /streams/{stream_id}/members · private': {
    path: (f) => `/streams/${f.streams.private}/members`,
    refused: except(PRIVATE_READERS, INVALID_STREAM),
  },
  'GET /users/me/{stream_id}/topics': {
    path: (f) => `/users/me/${f.streams.public}/topics`,
    refused: except(PUBLIC_READERS, INVALID_STREAM),
  },
  'GET /users/me/{stream_id}/topics · private': {
    path: (f) => `/users/me/${f.streams.private}/topics`,
    refused: except(PRIVATE_READERS, INVALID_STREAM),
  },
  'GET /users/me/pointer': {},
  'POST /users/me/pointer': { params: (f) => ({ pointer: f.messages.guests }) },
  'PATCH /users/{user_id}': {
    path: (f) => `/users/${f.users.victim}`,
    params: () => ({ full_name: 'Renamed victim' }),
    refused: except(ADMINS, MUST_BE_ADMIN),
  },
  // Only an owner may make an owner (openapi update-user).
  'PATCH /users/{user_id} · owner role': {
    path: (f) => `/users/${f.users.victim}`,
    params: () => ({ role: 100 }),
    refused: { ...except(ADMINS, MUST_BE_ADMIN), admin: MUST_BE_OWNER },
  },
  // The victim is an owner by now: only an owner may deactivate an owner.
  'DELETE /users/{user_id}': {
    path: (f) => `/users/${f.users.victim}`,
    refused: { ...except(ADMINS, MUST_BE_ADMIN), admin: MUST_BE_OWNER },
  },
  'POST /users/{user_id}/reactivate': { path: (f) => `/users/${f.users.victim}/reactivate`, refused: except(ADMINS, MUST_BE_ADMIN) },
  'POST /bots': {
    params: (f) => ({ full_name: 'Matrix bot', short_name: f.unique('mbot') }),
    refused: { guest: NOT_FOR_GUESTS, bot: NO_BOTS },
  },
  'GET /bots': {},
  // A bot is changed by its owner or an administrator (the public API's can_admin_user), never by
  // itself; guests and bots are refused bot management outright, as on POST /bots.
  'PATCH /bots/{bot_id}': {
    path: (f) => `/bots/${f.users.bot}`,
    params: () => ({ full_name: 'Renamed bot' }),
    refused: { ...except(ADMINS, INSUFFICIENT), ...NO_BOT_MANAGERS },
  },
  'DELETE /bots/{bot_id}': { path: (f) => `/bots/${f.users.doomedBot}`, refused: { ...except(ADMINS, INSUFFICIENT), ...NO_BOT_MANAGERS } },
  'GET /bot_storage': { refused: except(['bot'], MUST_BE_BOT) },
  'PUT /bot_storage': { params: () => ({ storage: { key: 'value' } }), refused: except(['bot'], MUST_BE_BOT) },
  'DELETE /bot_storage': { params: () => ({ keys: ['key'] }), refused: except(['bot'], MUST_BE_BOT) },
  'POST /users/me/muted_users/{muted_user_id}': { path: (f) => `/users/me/muted_users/${f.users.victim}` },
  'DELETE /users/me/muted_users/{muted_user_id}': { path: (f) => `/users/me/muted_users/${f.users.victim}` },
  'POST /user_uploads': {},
  // An upload no message links to is its uploader's alone; the answer never says it exists.
  'GET /user_uploads/{realm_id}/{dir}/{random}/{filename}': {
    path: (f) => `/user_uploads/${f.attachment.path}`,
    refused: except(['owner'], NO_FILE),
  },
  'GET /attachments': {},
  'DELETE /attachments/{attachment_id}': { path: (f) => `/attachments/${f.attachment.id}`, refused: except(['owner'], INVALID_ATTACHMENT) },
  'POST /users/me/avatar': {},
  'DELETE /users/me/avatar': {},
  'GET /realm/emoji': {},
  // add_custom_emoji_policy is members by default: guests may not add emoji.
  'POST /realm/emoji/{emoji_name}': { path: (f) => `/realm/emoji/${f.unique('emoji')}`, refused: { guest: INSUFFICIENT } },
  'DELETE /realm/emoji/{emoji_name}': { path: (f) => `/realm/emoji/${f.emoji}`, refused: except(ADMINS, NOT_EMOJI_AUTHOR) },
  'PATCH /realm': { params: () => ({ description: 'The matrix realm' }), refused: except(ADMINS, MUST_BE_ADMIN) },
  'PATCH /realm · owner setting': {
    params: () => ({ invite_to_realm_policy: 2 }),
    refused: { ...except(ADMINS, MUST_BE_ADMIN), admin: MUST_BE_OWNER },
  },
  'PATCH /realm/user_settings_defaults': { params: () => ({ twenty_four_hour_time: true }), refused: except(ADMINS, MUST_BE_ADMIN) },
  'POST /users/me/status': { params: () => ({ status_text: 'in the matrix' }) },
  'GET /users/{user_id}/status': { path: (f) => `/users/${f.users.owner}/status` },
  'POST /users/me/presence': { params: () => ({ status: 'active' }) },
  'GET /realm/presence': {},
  'GET /users/{user_id_or_email}/presence': { path: (f) => `/users/${f.users.owner}/presence` },
  'POST /users/me/api_key/regenerate': { last: true },
  'DELETE /users/me': { last: true, refused: {} },
};
