import { z } from 'zod';
import { messageEvent, updateMessageEvent, deleteMessageEvent, reactionEvent, updateMessageFlagsEvent } from './message-payloads';
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
import { subscriptionEvent, streamEvent, realmUserEvent, typingEvent } from './stream-user-payloads';
// stream-prefs
import { defaultStreamGroupsEvent, defaultStreamsEvent, mutedTopicsEvent } from './stream-prefs-payloads';
import { realmBotEvent } from './account-payloads';
import { realmUserSettingsDefaultsEvent } from './org-payloads';

/*
 * Every event payload as a client receives it from GET /events (api-notes §d, the reference
 * OpenAPI's event schemas, with the spec's neutral names), as ONE discriminated union: by
 * `type`, then by `op` where the event has one. Objects are strict where api-notes says the
 * keys are exact, so an extra or a missing key fails. Used by tests; the hot path never runs it.
 */

/** Every event a client can receive from GET /events. */
export const clientEventSchema = z.discriminatedUnion('type', [
  messageEvent,
  updateMessageEvent,
  deleteMessageEvent,
  reactionEvent,
  updateMessageFlagsEvent,
  subscriptionEvent,
  streamEvent,
  realmUserEvent,
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
  // stream-prefs
  mutedTopicsEvent,
  defaultStreamsEvent,
  defaultStreamGroupsEvent,
  realmBotEvent,
  realmUserSettingsDefaultsEvent,
]);

export type ClientEventPayload = z.infer<typeof clientEventSchema>;
export type ClientEventType = ClientEventPayload['type'];

/** The declared `type` strings, for the check that nothing ships undeclared. */
export function declaredEventTypes(): string[] {
  return clientEventSchema.options
    .map((option) => {
      const values = option._zod.propValues?.['type'];
      return values ? [...values].map(String) : [];
    })
    .flat();
}
