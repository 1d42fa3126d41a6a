import t from 'tap';
import { complete, echoHtml, emojiChoices, mentionChoices, queryAt } from '../../src/web/app/completion';
import { resolveRecipients } from '../../src/web/app/recipient-rules';
import { emojiList } from '../../src/web/common/emoji';
import { buildSnapshot } from '../../src/web/state/snapshot';
import { ANN, BO, register } from './fixtures';

t.test('the word at the caret is an emoji or mention query only where one can start', async (t) => {
  t.strictSame(queryAt('nice :thu', 9), { kind: 'emoji', start: 5, text: 'thu' });
  t.strictSame(queryAt(':th', 3), { kind: 'emoji', start: 0, text: 'th' });
  t.equal(queryAt('nice :t', 7), null, 'one letter is not enough for emoji');
  t.equal(queryAt('time 10:30', 10), null, 'a colon inside a word is punctuation');
  t.equal(queryAt('see :thumbs up', 14), null, 'emoji names have no spaces');
  t.strictSame(queryAt('hi @an', 6), { kind: 'mention', start: 3, text: 'an' });
  t.strictSame(queryAt('hi @Ann L', 9), { kind: 'mention', start: 3, text: 'Ann L' }, 'names have spaces');
  t.equal(queryAt('mail a@b', 8), null, 'an email address is not a mention');
  t.strictSame(queryAt('hi @an and more', 6), { kind: 'mention', start: 3, text: 'an' }, 'only the text before the caret counts');
});

t.test('emoji choices put names that start with the query first, by the name a person reads', async (t) => {
  const choices = emojiChoices('thumbs', emojiList());
  t.equal(choices[0]?.label, 'thumbs_up');
  t.equal(choices[0]?.insert, ':thumbs_up: ');
  t.ok(choices.length <= 8);
  t.strictSame(emojiChoices('zzzz_nothing', emojiList()), []);
});

t.test('mention choices match a word of the name or the email, active people only', async (t) => {
  const snapshot = buildSnapshot(register(), 0);
  t.strictSame(
    mentionChoices('ann', snapshot.users.values()).map((choice) => choice.insert),
    ['@**Ann** '],
  );
  t.strictSame(mentionChoices('go', snapshot.users.values()), [], 'deactivated people are not offered');
  t.equal(mentionChoices('', snapshot.users.values()).length, 3);
});

t.test('taking a choice replaces the query and puts the caret after it', async (t) => {
  const value = 'hi @an, see';
  const query = queryAt(value, 6);
  if (!query) throw new Error('expected a query');
  t.strictSame(complete(value, 6, query, { label: 'Ann', insert: '@**Ann** ' }), { value: 'hi @**Ann** , see', caret: 12 });
});

t.test('a local echo shows the typed text escaped, in paragraphs', async (t) => {
  t.equal(echoHtml('a <b> & "c"\nline\n\nnext'), '<p>a &lt;b&gt; &amp; &quot;c&quot;<br>line</p><p>next</p>');
});

t.test('compose fields resolve to stream and topic, or to people by name or email', async (t) => {
  const snapshot = buildSnapshot(register(), 0);
  t.strictSame(resolveRecipients(snapshot, { mode: 'stream', stream: ' General ', topic: ' lunch ', to: '' }), {
    type: 'stream',
    to: 1,
    topic: 'lunch',
  });
  t.strictSame(resolveRecipients(snapshot, { mode: 'stream', stream: 'nope', topic: 'x', to: '' }), {
    error: 'There is no stream named nope',
  });
  t.strictSame(resolveRecipients(snapshot, { mode: 'stream', stream: '', topic: 'x', to: '' }), { error: 'Choose a stream' });
  t.strictSame(resolveRecipients(snapshot, { mode: 'direct', stream: '', topic: '', to: 'ann@example.test, Bo,ann' }), {
    type: 'direct',
    to: [ANN, BO],
  });
  t.strictSame(
    resolveRecipients(snapshot, { mode: 'direct', stream: '', topic: '', to: 'Gone' }),
    { error: 'Nobody here is called Gone' },
    'deactivated people cannot be written to',
  );
  t.strictSame(resolveRecipients(snapshot, { mode: 'direct', stream: '', topic: '', to: ' , ' }), { error: 'Say who the message is for' });
});
