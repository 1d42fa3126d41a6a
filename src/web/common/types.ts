/**
 * The server's objects as the page receives them (SPEC "Resources and their fields", the
 * register keys of api-notes §e). Field names are the API's own, so a value read from a
 * response is used as it is; only the fields the page reads are declared.
 */

export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';
  user_id: number;
}

export interface DisplayRecipient {
  id: number;
  email: string;
  full_name: string;
}

export interface Message {
  id: number;
  type: 'stream' | 'private';
  sender_id: number;
  sender_email: string;
  sender_full_name: string;
  avatar_url: string | null;
  content: string;
  display_recipient: string | DisplayRecipient[];
  stream_id?: number;
  subject: string;
  timestamp: number;
  flags: string[];
  reactions: Reaction[];
  last_edit_timestamp?: number;
  is_me_message: boolean;
  /** In a search's results: the content and topic with the matched words in `<span class="highlight">`. */
  match_content?: string;
  match_subject?: string;
}

/**
 * One version of a message in GET /messages/{message_id}/history, oldest first. An edit that
 * changed the content has `content_html_diff`: the new rendering with the words inserted and
 * deleted marked `highlight_text_inserted` / `highlight_text_deleted` (openapi get-message-history).
 */
export interface MessageSnapshot {
  content: string;
  rendered_content: string;
  timestamp: number;
  topic: string;
  user_id: number | null;
  prev_topic?: string;
  prev_content?: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
  prev_stream?: number;
  stream?: number;
}

export interface User {
  user_id: number;
  email: string;
  delivery_email: string | null;
  full_name: string;
  is_active: boolean;
  is_admin: boolean;
  is_owner: boolean;
  is_guest: boolean;
  is_bot: boolean;
  role: number;
  timezone: string;
  avatar_url: string | null;
}

export interface Stream {
  stream_id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: boolean;
  is_web_public: boolean;
  stream_post_policy: number;
  history_public_to_subscribers: boolean;
  first_message_id: number | null;
}

export interface Subscription extends Stream {
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
  subscribers?: number[];
  /** null follows the person's stream-wide setting (enable_stream_desktop_notifications …). */
  desktop_notifications?: boolean | null;
  audible_notifications?: boolean | null;
}

export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
  author_id: number | null;
}

export interface UserStatus {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

/** Aggregated presence (register `presence` with `slim_presence`): seconds since the epoch. */
export interface Presence {
  active_timestamp: number;
  idle_timestamp: number;
}

export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

/**
 * What the page knows at one moment, rebuilt (not mutated) whenever an event changes it, so a
 * view compares snapshots by identity. The client core owns it (src/web/state/); panels read it.
 */
export interface ChatSnapshot {
  me: User;
  users: ReadonlyMap<number, User>;
  /** Every stream the user can see, subscribed or not. */
  streams: ReadonlyMap<number, Stream>;
  subscriptions: ReadonlyMap<number, Subscription>;
  /** Register's `realm_*` keys as received (realm_name, realm_allow_message_editing …). */
  realm: Readonly<Record<string, unknown>>;
  realmEmoji: Readonly<Record<string, RealmEmoji>>;
  linkifiers: readonly Linkifier[];
  /** Register's `user_settings` (twenty_four_hour_time, enter_sends, emojiset, color_scheme …). */
  userSettings: Readonly<Record<string, unknown>>;
  presences: ReadonlyMap<number, Presence>;
  userStatus: ReadonlyMap<number, UserStatus>;
  /** `${stream_id}:${topic}` → visibility policy (1 muted, 2 unmuted). */
  topicPolicies: ReadonlyMap<string, number>;
  /** The server's clock minus ours, for presence ages and edit limits (seconds). */
  serverTimeOffset: number;
}
