import { API_ROUTE_IDS, type RouteId } from '../src/wire/routes';
// Status, presence, realm settings
import { getRealmPresence, getUserPresence, postPresence } from './endpoints/presence';
import { patchRealm, patchRealmUserSettingsDefaults } from './endpoints/realm';
import { getUserStatus, postUserStatus } from './endpoints/user-status';
import { getServerSettings, postFetchApiKey } from './endpoints/accounts';
import { getMatchesNarrow, getMessages, postFlagsForNarrow } from './endpoints/message-fetch';
import { getMessage, postMessages, postRenderMessage } from './endpoints/messages';
import { getStreams } from './endpoints/streams';
import { postSubscriptions } from './endpoints/subscriptions';
import { patchSubscriptionProperty, postSubscriptionProperties } from './endpoints/subscription-properties';
import { patchMutedTopic, postUserTopic } from './endpoints/user-topics';
import { deleteDefaultStream, postDefaultStream } from './endpoints/default-streams';
import {
  deleteDefaultStreamGroup,
  patchDefaultStreamGroup,
  patchDefaultStreamGroupStreams,
  postDefaultStreamGroup,
} from './endpoints/default-stream-groups';
// stream-writes
import { deleteStream, deleteSubscriptions, patchStream } from './endpoints/stream-writes';
import {
  getShardStats,
  getSleepers,
  postBrokenContract,
  postCrashShard,
  postExit,
  postHog,
  postSpin,
  postRenderHold,
  postMoveRecentRows,
  postSyncHold,
  postSleep,
  postThrow,
} from './endpoints/test-hooks';
import { getOwnUser, postUsers } from './endpoints/users';
import { deleteAlertWords, getAlertWords, postAlertWords } from './endpoints/alert-words';
import { deleteLinkifier, getLegacyFilters, getLinkifiers, patchLinkifier, postLinkifier } from './endpoints/linkifiers';
import {
  deleteUserGroup,
  getIsUserGroupMember,
  getUserGroupMembers,
  getUserGroups,
  getUserGroupSubgroups,
  patchUserGroup,
  postCreateUserGroup,
  postUserGroupMembers,
  postUserGroupSubgroups,
} from './endpoints/user-groups';
import { deleteDraft, getDrafts, patchDraft, postDrafts } from './endpoints/drafts';
import { deletePlayground, postPlayground } from './endpoints/playgrounds';
import {
  deleteOwnProfileData,
  deleteProfileField,
  getProfileFields,
  patchOwnProfileData,
  patchProfileField,
  patchProfileFieldOrder,
  postProfileField,
} from './endpoints/profile-fields';
import { deleteScheduledMessage, getScheduledMessages, patchScheduledMessage, postScheduledMessage } from './endpoints/scheduled-messages';
import { deleteReaction, postReaction } from './endpoints/reactions';
import { postMessageFlags } from './endpoints/flags';
import { postMarkAllAsRead, postMarkStreamAsRead, postMarkTopicAsRead } from './endpoints/mark-read';
import { getReadReceipts } from './endpoints/read-receipts';
import { getMessageHistory, patchMessage } from './endpoints/message-edit';
import { deleteMessage, postDeleteTopic } from './endpoints/message-delete';
import { deleteEvents, getEvents, postRegister } from './endpoints/events';
import { postTyping } from './endpoints/typing';
import { getPointer, postPointer } from './endpoints/pointer';
import {
  getStreamById,
  getStreamId,
  getStreamMembers,
  getStreamTopics,
  getSubscriptionStatus,
  getSubscriptions,
} from './endpoints/stream-reads';
import { getUser, getUsers } from './endpoints/people';
import { getEmailConfirm, patchSettings } from './endpoints/settings';
import {
  deleteMutedUser,
  deleteOwnUser,
  deleteUser,
  patchUser,
  postMutedUser,
  postReactivateUser,
  postRegenerateApiKey,
} from './endpoints/user-admin';
import { deleteBot, getBots, patchBot, postBot } from './endpoints/bots';
import { deleteBotStorage, getBotStorage, putBotStorage } from './endpoints/bot-storage';
import type { Route } from './lib/route';
import {
  deleteAttachment,
  getAttachments,
  getTemporaryUpload,
  getTemporaryUploadUrl,
  getThumbnail,
  getUploadedFile,
  postUpload,
} from './endpoints/attachments';
import { deleteAvatar, getAvatar, getAvatarImage, getAvatarMedium, postAvatar } from './endpoints/avatars';
import { deleteRealmEmoji, getEmojiImage, getEmojiStill, getRealmEmoji, postRealmEmoji } from './endpoints/realm-emoji';
import { postLogin, postLogout } from './endpoints/sessions';
import { apiDescriptionRoute } from './endpoints/api-description';

/**
 * THE route table: one row per endpoint, keyed by the ids in src/wire/routes.ts (the
 * compiler checks that every id has exactly one row). Handlers live in endpoints/<domain>.ts.
 */
export const ROUTES: Record<RouteId, Route> = {
  // Accounts
  'GET /server_settings': getServerSettings, // endpoints/accounts
  'GET /openapi.json': apiDescriptionRoute(() => Object.fromEntries(API_ROUTE_IDS.map((id) => [id, ROUTES[id]]))), // endpoints/api-description (the /api/v1 routes)
  'POST /fetch_api_key': postFetchApiKey, // endpoints/accounts
  'POST /users': postUsers, // endpoints/users
  'GET /users/me': getOwnUser, // endpoints/users
  // User reads, personal settings
  'GET /users': getUsers, // endpoints/people
  'GET /users/{user_id_or_email}': getUser, // endpoints/people
  'PATCH /settings': patchSettings, // endpoints/settings
  'PATCH /settings/display': patchSettings, // endpoints/settings (deprecated alias, feature level 80)
  'PATCH /settings/notifications': patchSettings, // endpoints/settings (deprecated alias, feature level 80)
  'GET /settings/email_confirm/{token}': getEmailConfirm, // endpoints/settings
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
  // stream-prefs: per-user subscription properties
  'POST /users/me/subscriptions/properties': postSubscriptionProperties, // endpoints/subscription-properties
  'PATCH /users/me/subscriptions/{stream_id}': patchSubscriptionProperty, // endpoints/subscription-properties
  'POST /user_topics': postUserTopic, // endpoints/user-topics
  'PATCH /users/me/subscriptions/muted_topics': patchMutedTopic, // endpoints/user-topics (legacy, feature level 170)
  'POST /default_streams': postDefaultStream, // endpoints/default-streams
  'DELETE /default_streams': deleteDefaultStream, // endpoints/default-streams
  'POST /default_stream_groups/create': postDefaultStreamGroup, // endpoints/default-stream-groups
  'PATCH /default_stream_groups/{group_id}': patchDefaultStreamGroup, // endpoints/default-stream-groups
  'DELETE /default_stream_groups/{group_id}': deleteDefaultStreamGroup, // endpoints/default-stream-groups
  'PATCH /default_stream_groups/{group_id}/streams': patchDefaultStreamGroupStreams, // endpoints/default-stream-groups
  // stream-writes
  'DELETE /users/me/subscriptions': deleteSubscriptions, // endpoints/stream-writes
  'PATCH /streams/{stream_id}': patchStream, // endpoints/stream-writes
  'DELETE /streams/{stream_id}': deleteStream, // endpoints/stream-writes
  // User groups
  'POST /user_groups/create': postCreateUserGroup, // endpoints/user-groups
  // User groups
  'GET /user_groups': getUserGroups, // endpoints/user-groups
  'PATCH /user_groups/{user_group_id}': patchUserGroup, // endpoints/user-groups
  'DELETE /user_groups/{user_group_id}': deleteUserGroup, // endpoints/user-groups
  'POST /user_groups/{user_group_id}/members': postUserGroupMembers, // endpoints/user-groups
  'GET /user_groups/{user_group_id}/members': getUserGroupMembers, // endpoints/user-groups
  'GET /user_groups/{user_group_id}/members/{user_id}': getIsUserGroupMember, // endpoints/user-groups
  'POST /user_groups/{user_group_id}/subgroups': postUserGroupSubgroups, // endpoints/user-groups
  'GET /user_groups/{user_group_id}/subgroups': getUserGroupSubgroups, // endpoints/user-groups
  // Drafts
  'GET /drafts': getDrafts, // endpoints/drafts
  'POST /drafts': postDrafts, // endpoints/drafts
  'PATCH /drafts/{draft_id}': patchDraft, // endpoints/drafts
  'DELETE /drafts/{draft_id}': deleteDraft, // endpoints/drafts
  // Code playgrounds
  'POST /realm/playgrounds': postPlayground, // endpoints/playgrounds
  'DELETE /realm/playgrounds/{playground_id}': deletePlayground, // endpoints/playgrounds
  // Custom profile fields and users' values
  'GET /realm/profile_fields': getProfileFields, // endpoints/profile-fields
  'POST /realm/profile_fields': postProfileField, // endpoints/profile-fields
  'PATCH /realm/profile_fields': patchProfileFieldOrder, // endpoints/profile-fields
  'PATCH /realm/profile_fields/{field_id}': patchProfileField, // endpoints/profile-fields
  'DELETE /realm/profile_fields/{field_id}': deleteProfileField, // endpoints/profile-fields
  'PATCH /users/me/profile_data': patchOwnProfileData, // endpoints/profile-fields
  'DELETE /users/me/profile_data': deleteOwnProfileData, // endpoints/profile-fields
  // Alert words
  'GET /users/me/alert_words': getAlertWords, // endpoints/alert-words
  'POST /users/me/alert_words': postAlertWords, // endpoints/alert-words
  'DELETE /users/me/alert_words': deleteAlertWords, // endpoints/alert-words
  // Linkifiers
  'GET /realm/linkifiers': getLinkifiers, // endpoints/linkifiers
  'POST /realm/filters': postLinkifier, // endpoints/linkifiers
  'PATCH /realm/filters/{filter_id}': patchLinkifier, // endpoints/linkifiers
  'DELETE /realm/filters/{filter_id}': deleteLinkifier, // endpoints/linkifiers
  // Scheduled messages
  'GET /scheduled_messages': getScheduledMessages, // endpoints/scheduled-messages
  'POST /scheduled_messages': postScheduledMessage, // endpoints/scheduled-messages
  'PATCH /scheduled_messages/{scheduled_message_id}': patchScheduledMessage, // endpoints/scheduled-messages
  'DELETE /scheduled_messages/{scheduled_message_id}': deleteScheduledMessage, // endpoints/scheduled-messages
  // Reactions, flags, mark-as-read, read receipts
  'POST /messages/{message_id}/reactions': postReaction, // endpoints/reactions
  'DELETE /messages/{message_id}/reactions': deleteReaction, // endpoints/reactions
  'POST /messages/flags': postMessageFlags, // endpoints/flags
  'POST /mark_all_as_read': postMarkAllAsRead, // endpoints/mark-read
  'POST /mark_stream_as_read': postMarkStreamAsRead, // endpoints/mark-read
  'POST /mark_topic_as_read': postMarkTopicAsRead, // endpoints/mark-read
  'GET /messages/{message_id}/read_receipts': getReadReceipts, // endpoints/read-receipts
  // edit: editing, moving, history and deleting messages and topics
  'PATCH /messages/{message_id}': patchMessage, // endpoints/message-edit
  'GET /messages/{message_id}/history': getMessageHistory, // endpoints/message-edit
  'DELETE /messages/{message_id}': deleteMessage, // endpoints/message-delete
  'POST /streams/{stream_id}/delete_topic': postDeleteTopic, // endpoints/message-delete
  // events: register, the event queue, typing
  'POST /register': postRegister, // endpoints/events
  'GET /events': getEvents, // endpoints/events
  'DELETE /events': deleteEvents, // endpoints/events
  'POST /typing': postTyping, // endpoints/typing
  // stream-reads: the stream domain's reads
  'GET /users/me/subscriptions': getSubscriptions, // endpoints/stream-reads
  'GET /users/{user_id}/subscriptions/{stream_id}': getSubscriptionStatus, // endpoints/stream-reads
  'GET /streams/{stream_id}': getStreamById, // endpoints/stream-reads
  'GET /get_stream_id': getStreamId, // endpoints/stream-reads
  'GET /streams/{stream_id}/members': getStreamMembers, // endpoints/stream-reads
  'GET /users/me/{stream_id}/topics': getStreamTopics, // endpoints/stream-reads
  // legacy: what zulip-js still offers though the public API removed it
  'GET /realm/filters': getLegacyFilters, // endpoints/linkifiers
  'GET /users/me/pointer': getPointer, // endpoints/pointer
  'POST /users/me/pointer': postPointer, // endpoints/pointer
  // account administration, API keys, bots, muted users
  'PATCH /users/{user_id}': patchUser, // endpoints/user-admin
  'DELETE /users/{user_id}': deleteUser, // endpoints/user-admin
  'POST /users/{user_id}/reactivate': postReactivateUser, // endpoints/user-admin
  'DELETE /users/me': deleteOwnUser, // endpoints/user-admin
  'POST /users/me/api_key/regenerate': postRegenerateApiKey, // endpoints/user-admin
  'POST /bots': postBot, // endpoints/bots
  'GET /bots': getBots, // endpoints/bots
  'PATCH /bots/{bot_id}': patchBot, // endpoints/bots
  'DELETE /bots/{bot_id}': deleteBot, // endpoints/bots
  'GET /bot_storage': getBotStorage, // endpoints/bot-storage
  'PUT /bot_storage': putBotStorage, // endpoints/bot-storage
  'DELETE /bot_storage': deleteBotStorage, // endpoints/bot-storage
  'POST /users/me/muted_users/{muted_user_id}': postMutedUser, // endpoints/user-admin
  'DELETE /users/me/muted_users/{muted_user_id}': deleteMutedUser, // endpoints/user-admin
  // Uploads, attachments, avatars, realm emoji
  'POST /user_uploads': postUpload, // endpoints/attachments
  'GET /user_uploads/{realm_id}/{dir}/{random}/{filename}': getTemporaryUploadUrl, // endpoints/attachments
  'GET /attachments': getAttachments, // endpoints/attachments
  'DELETE /attachments/{attachment_id}': deleteAttachment, // endpoints/attachments
  'POST /users/me/avatar': postAvatar, // endpoints/avatars
  'DELETE /users/me/avatar': deleteAvatar, // endpoints/avatars
  'GET /realm/emoji': getRealmEmoji, // endpoints/realm-emoji
  'POST /realm/emoji/{emoji_name}': postRealmEmoji, // endpoints/realm-emoji
  'DELETE /realm/emoji/{emoji_name}': deleteRealmEmoji, // endpoints/realm-emoji
  // Served at the root, outside /api/v1
  'GET /~/user_uploads/{realm_id}/{dir}/{random}/{filename}': getUploadedFile, // endpoints/attachments
  'GET /~/user_uploads/temporary/{token}/{filename}': getTemporaryUpload, // endpoints/attachments
  'GET /~/avatar/{email_or_id}': getAvatar, // endpoints/avatars
  'GET /~/avatar/{email_or_id}/medium': getAvatarMedium, // endpoints/avatars
  'GET /~/user_avatars/{realm_id}/{avatar_file}': getAvatarImage, // endpoints/avatars
  'GET /~/user_avatars/{realm_id}/emoji/images/{emoji_file}': getEmojiImage, // endpoints/realm-emoji
  'GET /~/user_avatars/{realm_id}/emoji/images/still/{emoji_file}': getEmojiStill,
  'GET /~/thumbnail': getThumbnail, // endpoints/attachments
  'POST /~/login': postLogin, // endpoints/sessions
  'POST /~/logout': postLogout, // endpoints/sessions
  // Status, presence, realm settings
  'PATCH /realm': patchRealm, // endpoints/realm
  'PATCH /realm/user_settings_defaults': patchRealmUserSettingsDefaults, // endpoints/realm
  'POST /users/me/status': postUserStatus, // endpoints/user-status
  'GET /users/{user_id}/status': getUserStatus, // endpoints/user-status
  'POST /users/me/presence': postPresence, // endpoints/presence
  'GET /realm/presence': getRealmPresence, // endpoints/presence
  'GET /users/{user_id_or_email}/presence': getUserPresence, // endpoints/presence
  // Test hooks (TEST_HOOKS=1 only)
  'POST /__test__/crash_shard': postCrashShard,
  'POST /__test__/sleep': postSleep,
  'POST /__test__/throw': postThrow,
  'POST /__test__/render_hold': postRenderHold,
  'POST /__test__/move_recent_rows': postMoveRecentRows,
  'POST /__test__/sync_hold': postSyncHold,
  'GET /__test__/sleepers': getSleepers,
  'POST /__test__/spin': postSpin,
  'POST /__test__/hog': postHog,
  'POST /__test__/exit': postExit,
  'GET /__test__/shard_stats': getShardStats,
  'POST /__test__/broken_contract': postBrokenContract,
};
