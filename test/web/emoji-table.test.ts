import t from 'tap';
import { EMOJI_TABLE } from 'virtual:emoji-table';

t.test('the page gets the server emoji table through the build', async (t) => {
  const thumbsUp = EMOJI_TABLE.split('\n').find((line) => line.split(' ').includes('thumbs_up'));
  t.equal(thumbsUp?.split(' ')[0], '1f44d');
});

t.test('emoji names and aliases resolve to their characters', async (t) => {
  const { emojiByName, emojiText } = await import('../../src/web/common/emoji');
  const entry = emojiByName('thumbs_up');
  t.equal(entry?.code, '1f44d');
  t.equal(emojiText(entry?.code ?? ''), '👍');
  t.equal(entry?.name, '+1', "the canonical name is the table's first");
  t.equal(entry?.displayName, 'thumbs_up', 'people read the first name made of words');
  t.equal(emojiByName('+1'), entry);
  t.equal(emojiByName('no_such_emoji'), undefined);
});
