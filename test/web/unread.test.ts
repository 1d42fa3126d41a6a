import t from 'tap';
import type { ServerEvent } from '../../src/web/state/events';
import {
  applyUnreadEvent,
  isUnread,
  markedRead,
  topicUnreadCount,
  unreadByConversation,
  unreadByStream,
  unreadByTopic,
  unreadFromRegister,
  type UnreadState,
} from '../../src/web/state/unread';
import { ANN, BO, ME, directMessage, streamMessage } from './fixtures';

const start = (): UnreadState =>
  unreadFromRegister(
    {
      streams: [
        { stream_id: 1, topic: 'lunch', unread_message_ids: [1, 2] },
        { stream_id: 1, topic: 'Plans', unread_message_ids: [3] },
        { stream_id: 2, topic: 'x', unread_message_ids: [4] },
      ],
      pms: [{ other_user_id: ANN, message_ids: [5] }],
      huddles: [{ user_ids_string: `${ME},${ANN},${BO}`, message_ids: [6, 7] }],
      mentions: [2, 6],
    },
    ME,
  );

const event = (fields: { type: string; [key: string]: unknown }): ServerEvent => ({ id: 1, ...fields });

t.test('register unreads count by stream, topic and direct conversation', async (t) => {
  const state = start();
  t.strictSame(
    [...unreadByStream(state)],
    [
      [1, 3],
      [2, 1],
    ],
  );
  t.strictSame(
    [...unreadByTopic(state, 1)],
    [
      ['lunch', 2],
      ['Plans', 1],
    ],
  );
  t.equal(topicUnreadCount(state, 1, 'plans'), 1, 'topics compare without case');
  t.strictSame(
    [...unreadByConversation(state)],
    [
      [String(ANN), 1],
      [`${ANN},${BO}`, 2],
    ],
  );
  t.equal(state.mentions.size, 2);
});

t.test('a new message from someone else is unread unless it arrives read; my own is read', async (t) => {
  let state = applyUnreadEvent(start(), event({ type: 'message', message: streamMessage(8, 2, 'x'), flags: ['mentioned'] }), ME);
  t.equal(unreadByStream(state).get(2), 2);
  t.ok(state.mentions.has(8));
  state = applyUnreadEvent(state, event({ type: 'message', message: streamMessage(9, 2, 'x'), flags: ['read'] }), ME);
  t.notOk(isUnread(state, 9));
  const mine = streamMessage(10, 2, 'x', { sender_id: ME });
  t.notOk(isUnread(applyUnreadEvent(state, event({ type: 'message', message: mine, flags: [] }), ME), 10));
  state = applyUnreadEvent(state, event({ type: 'message', message: directMessage(11, [ME, BO]), flags: [] }), ME);
  t.equal(unreadByConversation(state).get(String(BO)), 1);
});

t.test('read flags take messages out, and all: true clears everything', async (t) => {
  let state = applyUnreadEvent(start(), event({ type: 'update_message_flags', op: 'add', flag: 'read', messages: [1, 6], all: false }), ME);
  t.equal(unreadByStream(state).get(1), 2);
  t.notOk(state.mentions.has(6));
  t.equal(
    applyUnreadEvent(state, event({ type: 'update_message_flags', op: 'add', flag: 'starred', messages: [2], all: false }), ME),
    state,
    'other flags change nothing',
  );
  state = applyUnreadEvent(state, event({ type: 'update_message_flags', op: 'add', flag: 'read', messages: [], all: true }), ME);
  t.equal(state.messages.size, 0);
});

t.test('marking unread puts messages back where their details say', async (t) => {
  const state = applyUnreadEvent(
    start(),
    event({
      type: 'update_message_flags',
      op: 'remove',
      flag: 'read',
      messages: [20, 21],
      all: false,
      message_details: { '20': { type: 'stream', stream_id: 2, topic: 'y', mentioned: true }, '21': { type: 'private', user_ids: [BO] } },
    }),
    ME,
  );
  t.equal(topicUnreadCount(state, 2, 'y'), 1);
  t.ok(state.mentions.has(20));
  t.equal(unreadByConversation(state).get(String(BO)), 1);
});

t.test('deleted messages stop counting, one at a time or in bulk', async (t) => {
  let state = applyUnreadEvent(start(), event({ type: 'delete_message', message_type: 'stream', message_ids: [1, 2] }), ME);
  t.equal(unreadByStream(state).get(1), 1);
  t.notOk(state.mentions.has(2));
  state = applyUnreadEvent(state, event({ type: 'delete_message', message_type: 'private', message_id: 5 }), ME);
  t.notOk(isUnread(state, 5));
});

t.test('moved messages count in their new stream and topic', async (t) => {
  let state = applyUnreadEvent(
    start(),
    event({
      type: 'update_message',
      message_id: 1,
      message_ids: [1, 2],
      edit_timestamp: 1,
      subject: 'food',
      orig_subject: 'lunch',
      stream_id: 1,
    }),
    ME,
  );
  t.equal(topicUnreadCount(state, 1, 'food'), 2);
  t.equal(topicUnreadCount(state, 1, 'lunch'), 0);
  state = applyUnreadEvent(
    state,
    event({ type: 'update_message', message_id: 3, message_ids: [3], edit_timestamp: 1, stream_id: 1, new_stream_id: 2 }),
    ME,
  );
  t.equal(unreadByStream(state).get(2), 2);
  t.equal(topicUnreadCount(state, 2, 'Plans'), 1, 'the topic goes along');
});

t.test('messages marked read locally drop at once', async (t) => {
  const state = markedRead(start(), [1, 2, 3]);
  t.notOk(unreadByStream(state).has(1));
  const same = markedRead(state, [999]);
  t.equal(same, state, 'nothing to mark keeps the state');
});
