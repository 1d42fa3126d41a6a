import t from 'tap';
import { allChoices, filterChoices, normalizeQuery, PICKER_LIMIT } from '../../src/web/app/panels/picker';

const realmEmoji = {
  '3': { id: '3', name: 'party_parrot', source_url: '/emoji/3.png', deactivated: false, author_id: 1 },
  '4': { id: '4', name: 'old_logo', source_url: '/emoji/4.png', deactivated: true, author_id: 1 },
};
const choices = allChoices(realmEmoji);

t.test('choices are named by the name a person reads, not the canonical one', async (t) => {
  const thumbs = choices.find((choice) => choice.code === '1f44d');
  t.equal(thumbs?.name, 'thumbs_up');
  t.ok(thumbs?.names.includes('+1'), 'still found by its canonical name');
});

t.test('custom emoji come first and deactivated ones are not offered', async (t) => {
  t.strictSame(choices[0], {
    name: 'party_parrot',
    code: '3',
    reactionType: 'realm_emoji',
    names: ['party_parrot'],
    imageUrl: '/emoji/3.png',
  });
  t.notOk(choices.some((choice) => choice.name === 'old_logo'));
});

t.test('a search finds an emoji by any of its names', async (t) => {
  t.ok(
    filterChoices(choices, '+1').some((choice) => choice.name === 'thumbs_up'),
    'by the canonical name',
  );
  t.ok(
    filterChoices(choices, 'thumbs').some((choice) => choice.name === 'thumbs_up'),
    'by the display name',
  );
  t.ok(
    filterChoices(choices, 'parrot').some((choice) => choice.name === 'party_parrot'),
    'custom emoji by a part of the name',
  );
});

t.test('names starting with the search come before names containing it', async (t) => {
  const found = filterChoices(choices, 'up');
  const firstContaining = found.findIndex((choice) => !choice.names.some((name) => name.startsWith('up')));
  const lastStarting = found.map((choice) => choice.names.some((name) => name.startsWith('up'))).lastIndexOf(true);
  t.ok(lastStarting >= 0 && firstContaining > lastStarting);
});

t.test('what a person types is read as an emoji name', async (t) => {
  t.equal(normalizeQuery('  Thumbs Up '), 'thumbs_up');
  t.equal(normalizeQuery(':smile:'), 'smile');
  t.ok(filterChoices(choices, 'Thumbs up').some((choice) => choice.name === 'thumbs_up'));
});

t.test('without a search the picker offers only the first choices, so it opens fast', async (t) => {
  t.ok(choices.length > PICKER_LIMIT, 'the table has more emoji than the limit');
  t.equal(filterChoices(choices, '').length, PICKER_LIMIT);
  t.equal(filterChoices(choices, 'a', 5).length, 5, 'a broad search is capped too');
});

t.test('a search that matches nothing offers nothing', async (t) => {
  t.strictSame(filterChoices(choices, 'no_such_emoji_anywhere'), []);
});

t.test('an emoji named exactly as searched comes first', async (t) => {
  t.equal(filterChoices(choices, 'smile')[0]?.names.includes('smile'), true);
  t.equal(filterChoices(choices, 'thumbs_up')[0]?.name, 'thumbs_up');
});
