/** Small objects for the panels' unit tests (not a test file itself: tap runs only *.test.ts). */
import type { Message, User } from '../../src/web/common/types';

export function user(id: number, fields: Partial<User> = {}): User {
  return {
    user_id: id,
    email: `user${id}@example.test`,
    delivery_email: `user${id}@example.test`,
    full_name: `User ${id}`,
    is_active: true,
    is_admin: false,
    is_owner: false,
    is_guest: false,
    is_bot: false,
    role: 400,
    timezone: '',
    avatar_url: null,
    ...fields,
  };
}

export function message(id: number, fields: Partial<Message> = {}): Message {
  return {
    id,
    type: 'stream',
    sender_id: 1,
    sender_email: 'user1@example.test',
    sender_full_name: 'User 1',
    avatar_url: null,
    content: '<p>hello</p>',
    display_recipient: 'general',
    stream_id: 10,
    subject: 'greetings',
    timestamp: 1_000_000,
    flags: [],
    reactions: [],
    is_me_message: false,
    ...fields,
  };
}
