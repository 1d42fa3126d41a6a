/** Small server objects for the client state tests. */
import type { Message, Subscription, User } from '../../src/web/common/types';
import type { RegisterResponse } from '../../src/web/state/events';
import { user as panelsUser } from './panels-fixtures';

export const ME = 10;
export const ANN = 11;
export const BO = 12;

export function user(userId: number, fullName: string): User {
  return panelsUser(userId, { email: `${fullName.toLowerCase()}@example.test`, delivery_email: null, full_name: fullName });
}

export function subscription(streamId: number, name: string, extra: Partial<Subscription> = {}): Subscription {
  return {
    stream_id: streamId,
    name,
    description: '',
    rendered_description: '',
    invite_only: false,
    is_web_public: false,
    stream_post_policy: 1,
    history_public_to_subscribers: true,
    first_message_id: null,
    color: '#76ce90',
    is_muted: false,
    pin_to_top: false,
    subscribers: [ME],
    ...extra,
  };
}

export function streamMessage(id: number, streamId: number, topic: string, extra: Partial<Message> = {}): Message {
  return {
    id,
    type: 'stream',
    sender_id: ANN,
    sender_email: 'ann@example.test',
    sender_full_name: 'Ann',
    avatar_url: null,
    content: `<p>message ${id}</p>`,
    display_recipient: `stream ${streamId}`,
    stream_id: streamId,
    subject: topic,
    timestamp: 1_700_000_000 + id,
    flags: [],
    reactions: [],
    is_me_message: false,
    ...extra,
  };
}

export function directMessage(id: number, participants: readonly number[], extra: Partial<Message> = {}): Message {
  return {
    ...streamMessage(id, 0, ''),
    type: 'private',
    display_recipient: participants.map((userId) => ({ id: userId, email: `${userId}@example.test`, full_name: `User ${userId}` })),
    subject: '',
    ...extra,
  };
}

export function register(extra: Partial<RegisterResponse> = {}): RegisterResponse {
  return {
    queue_id: 'queue-1',
    last_event_id: -1,
    user_id: ME,
    realm_users: [user(ME, 'Me'), user(ANN, 'Ann'), user(BO, 'Bo')],
    realm_non_active_users: [{ ...user(13, 'Gone'), is_active: false }],
    subscriptions: [subscription(1, 'general'), subscription(2, 'design', { pin_to_top: true })],
    streams: [subscription(1, 'general'), subscription(2, 'design'), subscription(3, 'random')],
    realm_name: 'Example',
    max_message_length: 10000,
    realm_emoji: {},
    realm_linkifiers: [],
    user_settings: { enter_sends: true, color_scheme: 1 },
    presences: { [String(ANN)]: { active_timestamp: 100, idle_timestamp: 100 } },
    server_timestamp: 1000,
    user_status: { [String(BO)]: { status_text: 'on leave' } },
    user_topics: [{ stream_id: 1, topic_name: 'Noise', visibility_policy: 1 }],
    ...extra,
  };
}
