import t from 'tap';
import type { ServerEvent } from '../../src/web/state/events';
import {
  addLocalEcho,
  applyListEvent,
  confirmLocalEcho,
  dropLocalEcho,
  emptyList,
  failLocalEcho,
  mergePage,
  newestId,
  oldestId,
  replaceWithPage,
  takesNewMessages,
  type MessageList,
} from '../../src/web/state/message-list';
import { ANN, ME, directMessage, streamMessage } from './fixtures';

const event = (fields: { type: string; [key: string]: unknown }): ServerEvent => ({ id: 1, ...fields });
const ids = (list: MessageList) => list.messages.map((message) => message.localId ?? message.id);

function openStream(): MessageList {
  return mergePage(
    emptyList({ kind: 'stream', streamId: 1 }),
    { messages: [streamMessage(50, 1, 'a'), streamMessage(60, 1, 'a')], found_oldest: false, found_newest: true },
    'around',
  );
}

t.test('pages merge in id order without duplicates and keep what each end has found', async (t) => {
  let list = openStream();
  t.equal(list.loading, false);
  list = mergePage(
    list,
    { messages: [streamMessage(30, 1, 'a'), streamMessage(50, 1, 'a')], found_oldest: true, found_newest: false },
    'older',
  );
  t.strictSame(ids(list), [30, 50, 60]);
  t.equal(list.foundOldest, true);
  t.equal(list.foundNewest, true, 'an older page does not say anything about the newest end');
  t.equal(oldestId(list), 30);
  t.equal(newestId(list), 60);
});

t.test('a live message that matches the view is appended; others are not', async (t) => {
  let list = applyListEvent(openStream(), event({ type: 'message', message: streamMessage(70, 1, 'b'), flags: ['mentioned'] }), ME);
  t.strictSame(ids(list), [50, 60, 70]);
  t.strictSame(list.messages.at(-1)?.flags, ['mentioned'], 'the event flags become the message flags');
  t.strictSame(list.messages.at(-1)?.reactions, []);
  list = applyListEvent(list, event({ type: 'message', message: streamMessage(71, 2, 'b'), flags: [] }), ME);
  t.strictSame(ids(list), [50, 60, 70]);
  const behind = mergePage(
    emptyList({ kind: 'stream', streamId: 1 }),
    { messages: [streamMessage(5, 1, 'a')], found_oldest: true, found_newest: false },
    'around',
  );
  t.strictSame(
    ids(applyListEvent(behind, event({ type: 'message', message: streamMessage(72, 1, 'b'), flags: [] }), ME)),
    [5],
    'a view that does not reach the newest waits for its next page',
  );
});

t.test('a local echo shows at once and is replaced by the server copy of the same send', async (t) => {
  const echo = { ...directMessage(0, [ME, ANN], { sender_id: ME, content: '<p>hi</p>' }), localId: '1.01' };
  let list = mergePage(
    emptyList({ kind: 'dm', userIds: [ANN] }),
    { messages: [directMessage(40, [ME, ANN])], found_oldest: true, found_newest: true },
    'around',
  );
  list = addLocalEcho(list, echo);
  t.strictSame(ids(list), [40, '1.01']);
  t.equal(list.messages.at(-1)?.sendState, 'sending');
  list = applyListEvent(
    list,
    event({ type: 'message', message: directMessage(41, [ME, ANN], { sender_id: ME }), flags: ['read'], local_message_id: '1.01' }),
    ME,
  );
  t.strictSame(ids(list), [40, 41]);
  t.equal(list.messages.at(-1)?.sendState, undefined);
});

t.test('a view whose fetch failed takes new messages: they are the newest there is', async (t) => {
  // The first page never came (the server answered an error): nothing loaded, nothing found.
  const failed: MessageList = { ...emptyList({ kind: 'dm', userIds: [ANN] }), loading: false };
  t.equal(takesNewMessages(failed), true);
  let list = addLocalEcho(failed, { ...directMessage(0, [ME, ANN], { sender_id: ME }), localId: '4.1' });
  list = applyListEvent(
    list,
    event({ type: 'message', message: directMessage(80, [ME, ANN], { sender_id: ME }), flags: ['read'], local_message_id: '4.1' }),
    ME,
  );
  t.strictSame(ids(list), [80], 'the sent message replaces its echo');
  t.strictSame([list.foundOldest, list.foundNewest], [false, true], 'the view now ends at the newest; older pages load as usual');
  list = applyListEvent(list, event({ type: 'message', message: directMessage(81, [ME, ANN], { sender_id: ANN }), flags: [] }), ME);
  t.strictSame(ids(list), [80, 81], 'and the reply after it');
  t.equal(
    takesNewMessages(
      mergePage(
        emptyList({ kind: 'stream', streamId: 1 }),
        { messages: [streamMessage(5, 1, 'a')], found_oldest: true, found_newest: false },
        'around',
      ),
    ),
    false,
    'a view short of the newest still waits',
  );
});

t.test('a failed local echo is marked, and can be dropped', async (t) => {
  let list = addLocalEcho(openStream(), { ...streamMessage(0, 1, 'a'), localId: '2.5' });
  list = failLocalEcho(list, '2.5');
  t.equal(list.messages.at(-1)?.sendState, 'failed');
  t.strictSame(ids(dropLocalEcho(list, '2.5')), [50, 60]);
});

t.test('a re-fetch replaces the shown messages but keeps unconfirmed echoes', async (t) => {
  const list = addLocalEcho(openStream(), { ...streamMessage(0, 1, 'a'), localId: '3.1' });
  const fresh = replaceWithPage(list, {
    messages: [streamMessage(60, 1, 'a'), streamMessage(61, 1, 'a')],
    found_oldest: false,
    found_newest: true,
  });
  t.strictSame(ids(fresh), [60, 61, '3.1']);
});

t.test('edits change content and mark the message edited; moves take it out of the view', async (t) => {
  let list = applyListEvent(
    openStream(),
    event({
      type: 'update_message',
      message_id: 50,
      message_ids: [50],
      edit_timestamp: 99,
      rendered_content: '<p>new</p>',
      content: 'new',
      stream_id: 1,
    }),
    ME,
  );
  t.equal(list.messages[0]?.content, '<p>new</p>');
  t.equal(list.messages[0]?.last_edit_timestamp, 99);
  list = applyListEvent(
    list,
    event({
      type: 'update_message',
      message_id: 60,
      message_ids: [60],
      edit_timestamp: 100,
      rendering_only: true,
      rendered_content: '<p>re</p>',
    }),
    ME,
  );
  t.equal(list.messages[1]?.last_edit_timestamp, undefined, 'a re-render is not an edit');
  const topicView = mergePage(
    emptyList({ kind: 'topic', streamId: 1, topic: 'a' }),
    { messages: [streamMessage(50, 1, 'a'), streamMessage(60, 1, 'a')], found_oldest: true, found_newest: true },
    'around',
  );
  const moved = applyListEvent(
    topicView,
    event({ type: 'update_message', message_id: 50, message_ids: [50], edit_timestamp: 1, subject: 'b', stream_id: 1 }),
    ME,
  );
  t.strictSame(ids(moved), [60]);
  const inStream = applyListEvent(
    openStream(),
    event({ type: 'update_message', message_id: 50, message_ids: [50, 60], edit_timestamp: 1, subject: 'b', stream_id: 1 }),
    ME,
  );
  t.strictSame(
    inStream.messages.map((message) => message.subject),
    ['b', 'b'],
    'a stream view keeps a renamed topic',
  );
});

t.test('flags, reactions and deletions apply to the messages they name', async (t) => {
  let list = applyListEvent(
    openStream(),
    event({ type: 'update_message_flags', op: 'add', flag: 'starred', messages: [60], all: false }),
    ME,
  );
  t.strictSame(list.messages[1]?.flags, ['starred']);
  list = applyListEvent(list, event({ type: 'update_message_flags', op: 'remove', flag: 'starred', messages: [60], all: false }), ME);
  t.strictSame(list.messages[1]?.flags, []);
  const reaction = {
    message_id: 50,
    emoji_name: 'thumbs_up',
    emoji_code: '1f44d',
    reaction_type: 'unicode_emoji',
    user_id: ANN,
    user: { user_id: ANN },
  };
  list = applyListEvent(list, event({ type: 'reaction', op: 'add', ...reaction }), ME);
  list = applyListEvent(list, event({ type: 'reaction', op: 'add', ...reaction }), ME);
  t.equal(list.messages[0]?.reactions.length, 1, 'the same reaction twice counts once');
  list = applyListEvent(list, event({ type: 'reaction', op: 'remove', ...reaction }), ME);
  t.equal(list.messages[0]?.reactions.length, 0);
  list = applyListEvent(list, event({ type: 'delete_message', message_type: 'stream', message_ids: [50] }), ME);
  t.strictSame(ids(list), [60]);
  const unchanged = applyListEvent(list, event({ type: 'delete_message', message_type: 'stream', message_id: 999 }), ME);
  t.equal(unchanged, list);
});

t.test('a confirmed echo is replaced by its message from a page or an event without a local id', async (t) => {
  const sent = addLocalEcho(openStream(), { ...streamMessage(0, 1, 'a', { sender_id: ME }), localId: '4.1' });
  const confirmed = confirmLocalEcho(sent, '4.1', 61);
  t.strictSame(ids(confirmed), [50, 60, '4.1']);
  const refetched = replaceWithPage(confirmed, {
    messages: [streamMessage(60, 1, 'a'), streamMessage(61, 1, 'a', { sender_id: ME })],
    found_oldest: false,
    found_newest: true,
  });
  t.strictSame(ids(refetched), [60, 61], 'the page brings the message, so the echo goes');
  const live = applyListEvent(
    confirmed,
    event({ type: 'message', message: streamMessage(61, 1, 'a', { sender_id: ME }), flags: ['read'] }),
    ME,
  );
  t.strictSame(ids(live), [50, 60, 61]);
});
