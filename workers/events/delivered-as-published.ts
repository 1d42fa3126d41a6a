import { realmBotEvent } from './account-payloads';
import { deleteMessageEvent, reactionEvent, updateMessageFlagsEvent } from './message-payloads';
import { realmUserSettingsDefaultsEvent } from './org-payloads';
import {
  userSettingsEvent,
  updateDisplaySettingsEvent,
  updateGlobalNotificationsEvent,
  realmEvent,
  realmLinkifiersEvent,
  realmPlaygroundsEvent,
  realmEmojiEvent,
  customProfileFieldsEvent,
  userStatusEvent,
  userTopicEvent,
  alertWordsEvent,
  mutedUsersEvent,
  pointerEvent,
  scheduledMessagesEvent,
  draftsEvent,
  attachmentEvent,
  userGroupEvent,
  presenceEvent,
  heartbeatEvent,
} from './realm-payloads';
import { defaultStreamGroupsEvent, defaultStreamsEvent, mutedTopicsEvent } from './stream-prefs-payloads';
import { streamEvent, typingEvent } from './stream-user-payloads';

/**
 * The events a client receives exactly as an action publishes them: both unions (published.ts,
 * types.ts) list these, and differ only in the few the queues shape per user.
 */
export const EVENTS_DELIVERED_AS_PUBLISHED = [
  deleteMessageEvent,
  reactionEvent,
  updateMessageFlagsEvent,
  streamEvent,
  typingEvent,
  userSettingsEvent,
  updateDisplaySettingsEvent,
  updateGlobalNotificationsEvent,
  realmEvent,
  realmLinkifiersEvent,
  realmPlaygroundsEvent,
  realmEmojiEvent,
  userStatusEvent,
  userTopicEvent,
  userGroupEvent,
  attachmentEvent,
  customProfileFieldsEvent,
  alertWordsEvent,
  scheduledMessagesEvent,
  draftsEvent,
  mutedUsersEvent,
  pointerEvent,
  presenceEvent,
  heartbeatEvent,
  mutedTopicsEvent,
  defaultStreamsEvent,
  defaultStreamGroupsEvent,
  realmBotEvent,
  realmUserSettingsDefaultsEvent,
] as const;
