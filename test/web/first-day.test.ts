import t from 'tap';
import { emojiChoices, mentionChoices, queryAt, streamChoices } from '../../src/web/app/completion';
import { fieldsFor, fieldsOfMessage } from '../../src/web/app/compose-fields';
import { searchSuggestions } from '../../src/web/app/search-suggestions';
import { emojiList } from '../../src/web/common/emoji';
import type { UpdateMessageEvent } from '../../src/web/state/events';
import { addLocalEcho, emptyList, failLocalEcho, mergePage, retryLocalEcho } from '../../src/web/state/message-list';
import { searchTerms } from '../../src/web/state/search-query';
import { buildSnapshot } from '../../src/web/state/snapshot';
import { followedTopic } from '../../src/web/state/topic-moves';
import { ANN, BO, ME, directMessage, register, streamMessage, subscription, user } from './fixtures';

t.test('an exact name ranks first in emoji, mention and stream completion', async (t) => {
  t.equal(emojiChoices('smile', emojiList())[0]?.insert, ':smile: ', ':smile is smile, not smiley');
  t.equal(emojiChoices('tada', emojiList())[0]?.label, 'tada');
  const users = [user(1, 'Bob Stone'), user(2, 'Bo'), user(3, 'Bobby')];
  t.strictSame(
    mentionChoices('bo', users).map((choice) => choice.label),
    ['Bo', 'Bob Stone', 'Bobby'],
  );
  const streams = [subscription(1, 'design-team'), subscription(2, 'team'), subscription(3, 'teamwork')];
  t.strictSame(
    streamChoices('team', streams).map((choice) => choice.insert),
    ['#**team** ', '#**teamwork** ', '#**design-team** '],
  );
  t.strictSame(queryAt('see #des', 8), { kind: 'stream', start: 4, text: 'des' });
  t.equal(queryAt('# Heading', 9), null, 'a heading is not a stream link');
});

t.test('search operators become narrow terms; the rest is free text', async (t) => {
  t.strictSame(searchTerms('sender:bo@example.test stream:"first day" topic:lunch plans'), [
    { operator: 'sender', operand: 'bo@example.test' },
    { operator: 'stream', operand: 'first day' },
    { operator: 'topic', operand: 'lunch' },
    { operator: 'search', operand: 'plans' },
  ]);
  t.strictSame(searchTerms('is:starred -has:link from:12 near:40 id:41 dm:a@x,b@y'), [
    { operator: 'is', operand: 'starred' },
    { operator: 'has', operand: 'link', negated: true },
    { operator: 'sender', operand: 12 },
    { operator: 'near', operand: '40' },
    { operator: 'id', operand: '41' },
    { operator: 'dm', operand: 'a@x,b@y' },
  ]);
  t.strictSame(searchTerms('search:lunch 10:30 "two words"'), [{ operator: 'search', operand: 'lunch 10:30 two words' }]);
  t.strictSame(searchTerms('sender:'), [], 'an operator with nothing after it is left out');
});

t.test('search suggestions complete operators, then their operands', async (t) => {
  const snapshot = buildSnapshot(register(), 1000);
  t.strictSame(
    searchSuggestions('sen', snapshot).map((suggestion) => suggestion.value),
    ['sender:'],
  );
  t.strictSame(searchSuggestions('lunch sender:an', snapshot), [
    { label: 'sender:ann@example.test', value: 'lunch sender:ann@example.test ' },
  ]);
  t.strictSame(
    searchSuggestions('-is:st', snapshot).map((suggestion) => suggestion.label),
    ['-is:starred'],
  );
  t.strictSame(
    searchSuggestions('stream:gen', snapshot).map((suggestion) => suggestion.value),
    ['stream:general '],
  );
  t.strictSame(searchSuggestions('lunch ', snapshot), [], 'nothing is suggested between words');
});

t.test('a topic moved away from the open view takes the view along', async (t) => {
  const narrow = { kind: 'topic' as const, streamId: 1, topic: 'plans' };
  const move = (change: Partial<UpdateMessageEvent>): UpdateMessageEvent => ({
    id: 1,
    type: 'update_message',
    message_id: 5,
    message_ids: [5, 6],
    edit_timestamp: 100,
    stream_id: 1,
    orig_subject: 'Plans',
    propagate_mode: 'change_all',
    ...change,
  });
  t.strictSame(followedTopic(narrow, move({ subject: '✔ Plans' })), { kind: 'topic', streamId: 1, topic: '✔ Plans' });
  t.strictSame(followedTopic(narrow, move({ new_stream_id: 2 })), { kind: 'topic', streamId: 2, topic: 'plans' });
  t.equal(followedTopic(narrow, move({ subject: 'x', propagate_mode: 'change_one' })), null, 'one message moved');
  t.equal(followedTopic(narrow, move({ subject: 'x', orig_subject: 'other' })), null, 'another topic moved');
  t.equal(followedTopic({ kind: 'stream', streamId: 1 }, move({ subject: 'x' })), null, 'a stream view stays');
});

t.test('a failed local echo keeps its place among newer messages; a retry makes it the newest', async (t) => {
  const narrow = { kind: 'stream' as const, streamId: 1 };
  let list = mergePage(
    emptyList(narrow),
    { messages: [streamMessage(1, 1, 'a', { timestamp: 100 })], found_oldest: true, found_newest: true },
    'around',
  );
  const echo = { ...streamMessage(0, 1, 'a', { timestamp: 150, sender_id: ME }), id: Number.MAX_SAFE_INTEGER, localId: 'l1' };
  list = failLocalEcho(addLocalEcho(list, echo), 'l1');
  list = mergePage(list, { messages: [streamMessage(2, 1, 'a', { timestamp: 200 })], found_oldest: true, found_newest: true }, 'newer');
  t.strictSame(
    list.messages.map((message) => message.localId ?? message.id),
    [1, 'l1', 2],
  );
  list = retryLocalEcho(list, 'l1', 300);
  t.strictSame(
    list.messages.map((message) => [message.localId ?? message.id, message.sendState]),
    [
      [1, undefined],
      [2, undefined],
      ['l1', 'sending'],
    ],
  );
});

t.test('the compose fields follow the view, and the message clicked', async (t) => {
  const snapshot = buildSnapshot(register(), 1000);
  const typed = { mode: 'direct' as const, stream: 'general', topic: 'old', to: 'bo@example.test' };
  t.strictSame(fieldsFor({ kind: 'all' }, snapshot, typed), { mode: 'stream', stream: '', topic: '', to: '' });
  t.strictSame(fieldsFor({ kind: 'stream', streamId: 1 }, snapshot, typed), { mode: 'stream', stream: 'general', topic: '', to: '' });
  t.strictSame(fieldsOfMessage(streamMessage(3, 2, 'Looks'), snapshot), { mode: 'stream', stream: 'design', topic: 'Looks', to: '' });
  t.strictSame(fieldsOfMessage(directMessage(4, [ME, ANN, BO]), snapshot), {
    mode: 'direct',
    stream: '',
    topic: '',
    to: 'ann@example.test, bo@example.test',
  });
});
