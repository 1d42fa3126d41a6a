/**
 * The events GET /events delivers (api-notes §d), as far as the page reads them, and the
 * register response. Everything arrives as JSON, so each shape is declared here once and the
 * modules that apply events narrow `ServerEvent` by its `type` (and `op`).
 */
import type { Message, Presence, Reaction, RealmEmoji, Stream, Subscription, User, UserStatus, Linkifier } from '../common/types';

export interface ServerEvent {
  id: number;
  type: string;
  op?: string;
  [key: string]: unknown;
}

export interface MessageEvent extends ServerEvent {
  type: 'message';
  message: Omit<Message, 'flags' | 'reactions'> & { reactions?: Reaction[] };
  flags: string[];
  local_message_id?: string;
}

export interface UpdateMessageEvent extends ServerEvent {
  type: 'update_message';
  message_id: number;
  message_ids: number[];
  edit_timestamp: number;
  rendering_only?: boolean;
  stream_id?: number;
  new_stream_id?: number;
  subject?: string;
  /** Set on moves: the topic the messages had, and which of the topic's messages moved. */
  orig_subject?: string;
  propagate_mode?: 'change_one' | 'change_later' | 'change_all';
  rendered_content?: string;
  content?: string;
  is_me_message?: boolean;
}

export interface DeleteMessageEvent extends ServerEvent {
  type: 'delete_message';
  message_ids?: number[];
  message_id?: number;
}

export interface FlagsEvent extends ServerEvent {
  type: 'update_message_flags';
  op: 'add' | 'remove';
  flag: string;
  messages: number[];
  all?: boolean;
  message_details?: Record<
    string,
    { type: 'stream' | 'private'; mentioned?: boolean; user_ids?: number[]; stream_id?: number; topic?: string }
  >;
}

export interface ReactionEvent extends ServerEvent {
  type: 'reaction';
  op: 'add' | 'remove';
  message_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: Reaction['reaction_type'];
  user_id: number;
}

export interface TypingEvent extends ServerEvent {
  type: 'typing';
  op: 'start' | 'stop';
  message_type: 'private' | 'stream';
  sender: { user_id: number };
  recipients?: { user_id: number }[];
  stream_id?: number;
  topic?: string;
}

export interface UnreadMessages {
  pms: { other_user_id: number; message_ids: number[] }[];
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; message_ids: number[] }[];
  mentions: number[];
}

/** POST /register with every event type, as event-loop.ts asks for it. */
export interface RegisterResponse {
  queue_id: string;
  last_event_id: number;
  user_id: number;
  realm_users: (Omit<User, 'is_active'> & { is_active?: boolean })[];
  realm_non_active_users?: User[];
  streams?: Stream[];
  subscriptions: Subscription[];
  realm_emoji?: Record<string, RealmEmoji>;
  realm_linkifiers?: Linkifier[];
  user_settings?: Record<string, unknown>;
  presences?: Record<string, Presence>;
  server_timestamp?: number;
  user_status?: Record<string, UserStatus>;
  user_topics?: { stream_id: number; topic_name: string; visibility_policy: number }[];
  unread_msgs?: UnreadMessages;
  recent_private_conversations?: { max_message_id: number; user_ids: number[] }[];
  [key: string]: unknown;
}

export function isEvent<T extends ServerEvent>(event: ServerEvent, type: T['type']): event is T {
  return event.type === type;
}
