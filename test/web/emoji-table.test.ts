import t from 'tap';
import { EMOJI_TABLE } from 'virtual:emoji-table';

t.test('the page gets the server emoji table through the build', async (t) => {
  const thumbsUp = EMOJI_TABLE.split('\n').find((line) => line.split(' ').includes('thumbs_up'));
  t.equal(thumbsUp?.split(' ')[0], '1f44d');
});
