/**
 * Which actions a person may take on a message, by the realm's settings (register's `realm_*`
 * keys), mirroring the server's checks so the menu offers only what will succeed. The server
 * still decides; its error shows if the two disagree (a limit passing while the menu is open).
 */
import type { ChatSnapshot, Message, User } from '../../common/types';
import { ROLE } from './roles';

/** Realm permission policies (register's `realm_*_policy` values). */
export const POLICY = { MEMBERS: 1, ADMINS: 2, FULL_MEMBERS: 3, MODERATORS: 4, EVERYONE: 5, NOBODY: 6 } as const;

/**
 * Whether a role passes a policy. Full members are members past the waiting period, which the
 * page cannot tell from the snapshot; it counts every member as full and lets the server refuse.
 */
export function rolePassesPolicy(role: number, policy: number): boolean {
  if (policy === POLICY.NOBODY) return false;
  if (policy === POLICY.EVERYONE) return true;
  if (role <= ROLE.ADMINISTRATOR) return true;
  if (policy === POLICY.ADMINS) return false;
  if (role === ROLE.MODERATOR) return true;
  if (policy === POLICY.MODERATORS) return false;
  if (role === ROLE.GUEST) return false;
  return policy === POLICY.MEMBERS || policy === POLICY.FULL_MEMBERS;
}

export interface MessagePermissions {
  edit: boolean;
  delete: boolean;
  /** Rename the topic (also resolve and unresolve it). */
  editTopic: boolean;
  moveToStream: boolean;
  /** Mute or unmute the message's topic. */
  muteTopic: boolean;
}

function policySetting(realm: ChatSnapshot['realm'], name: string, fallback: number): number {
  const value = realm[`realm_${name}`];
  return typeof value === 'number' ? value : fallback;
}

/** A time limit in seconds; null (or absent) means none. */
function limitSetting(realm: ChatSnapshot['realm'], name: string): number | null {
  const value = realm[`realm_${name}`];
  return typeof value === 'number' ? value : null;
}

function within(limit: number | null, age: number): boolean {
  return limit === null || age <= limit;
}

/** `now` is the server's clock in seconds. Defaults follow the server's realm defaults. */
export function messagePermissions(me: User, message: Message, realm: ChatSnapshot['realm'], now: number): MessagePermissions {
  const own = message.sender_id === me.user_id;
  const admin = me.role <= ROLE.ADMINISTRATOR;
  const moderator = me.role <= ROLE.MODERATOR;
  const isStream = message.type === 'stream' && message.stream_id !== undefined;
  const age = now - message.timestamp;

  const edit =
    own && realm['realm_allow_message_editing'] !== false && within(limitSetting(realm, 'message_content_edit_limit_seconds'), age);
  const deleteAllowed =
    admin ||
    (own &&
      rolePassesPolicy(me.role, policySetting(realm, 'delete_own_message_policy', POLICY.ADMINS)) &&
      within(limitSetting(realm, 'message_content_delete_limit_seconds'), age));
  const editTopic =
    isStream &&
    rolePassesPolicy(me.role, policySetting(realm, 'edit_topic_policy', POLICY.EVERYONE)) &&
    (moderator || within(limitSetting(realm, 'move_messages_within_stream_limit_seconds'), age));
  const moveToStream =
    isStream &&
    rolePassesPolicy(me.role, policySetting(realm, 'move_messages_between_streams_policy', POLICY.ADMINS)) &&
    (moderator || within(limitSetting(realm, 'move_messages_between_streams_limit_seconds'), age));
  return { edit, delete: deleteAllowed, editTopic, moveToStream, muteTopic: isStream };
}

/** The mark that resolves a topic (SPEC "Topic" transitions): a check mark and a space. */
export const RESOLVED_PREFIX = '✔ ';

export function isResolved(topic: string): boolean {
  return topic.startsWith(RESOLVED_PREFIX);
}

export function toggledResolution(topic: string): string {
  return isResolved(topic) ? topic.slice(RESOLVED_PREFIX.length) : `${RESOLVED_PREFIX}${topic}`;
}

/** Topic visibility policies (SPEC): 1 muted; 0 removes the policy. */
export function isTopicMuted(snapshot: Pick<ChatSnapshot, 'topicPolicies'>, streamId: number, topic: string): boolean {
  return snapshot.topicPolicies.get(`${streamId}:${topic}`) === 1;
}

/** A link to the message's conversation in the page's hash grammar, with the message to show. */
export function messageLink(message: Message, myId: number, base: string): string {
  if (message.type === 'stream' && message.stream_id !== undefined) {
    return `${base}#narrow/stream/${message.stream_id}/topic/${encodeURIComponent(message.subject)}/near/${message.id}`;
  }
  const recipients = Array.isArray(message.display_recipient) ? message.display_recipient : [];
  const others = recipients.map((r) => r.id).filter((id) => id !== myId);
  const ids = (others.length > 0 ? others : [myId]).sort((a, b) => a - b);
  return `${base}#narrow/dm/${ids.join(',')}/near/${message.id}`;
}
