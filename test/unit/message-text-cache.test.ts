import t from 'tap';
import { MessageTextCache } from '../../workers/queries/message-json';

t.test('the message text cache keeps at most its capacity, dropping the entry built longest ago', async (t) => {
  const cache = new MessageTextCache(3);
  for (const id of [1, 2, 3]) cache.set(id, 0, 1, Buffer.from(`text ${id}`));
  t.equal(cache.get(1, 0, 1)?.toString(), 'text 1');
  cache.set(4, 0, 1, Buffer.from('text 4'));
  t.equal(cache.size, 3);
  t.equal(cache.get(1, 0, 1)?.toString(), undefined, 'the first built is gone');
  t.equal(cache.get(4, 0, 1)?.toString(), 'text 4');

  // 3 is built again for a new version: it takes the next place (2's, which goes), and its
  // old place, coming round next, is left to the new message without dropping 3.
  cache.set(3, 1, 1, Buffer.from('text 3 edited'));
  t.equal(cache.get(3, 0, 1)?.toString(), undefined, 'the old version is not served');
  t.equal(cache.get(2, 0, 1)?.toString(), undefined, '2 went for it');
  cache.set(5, 0, 1, Buffer.from('text 5'));
  t.equal(cache.get(3, 1, 1)?.toString(), 'text 3 edited', "3's old place came round: it stays, rebuilt since");
  t.equal(cache.size, 3);
  cache.set(6, 0, 1, Buffer.from('text 6'));
  t.equal(cache.get(4, 0, 1)?.toString(), undefined, '4 goes next');
  cache.set(7, 0, 1, Buffer.from('text 7'));
  t.equal(cache.get(3, 1, 1)?.toString(), undefined, 'then 3, by its new place');
  t.strictSame(
    [5, 6, 7].map((id) => cache.get(id, 0, 1)?.toString()),
    ['text 5', 'text 6', 'text 7'],
  );
  t.equal(cache.size, 3);
});

t.test('variants of one message are kept side by side, and a new version drops them all', async (t) => {
  const cache = new MessageTextCache(10);
  cache.set(1, 0, 1, Buffer.from('html'));
  cache.set(1, 0, 0, Buffer.from('markdown'));
  t.equal(cache.get(1, 0, 1)?.toString(), 'html');
  t.equal(cache.get(1, 0, 0)?.toString(), 'markdown');
  cache.set(1, 1, 1, Buffer.from('html edited'));
  t.equal(cache.get(1, 1, 0)?.toString(), undefined, 'the Markdown of the old version is gone');
  t.equal(cache.get(1, 1, 1)?.toString(), 'html edited');
});
