import t from 'tap';
import { emojiLook, groupReactions, reactionLabel, reactionTitle, toggleRequest } from '../../src/web/app/panels/reactions';
import type { Reaction } from '../../src/web/common/types';
import { user } from './panels-fixtures';

const thumbs = (userId: number, name = 'thumbs_up'): Reaction => ({
  emoji_name: name,
  emoji_code: '1f44d',
  reaction_type: 'unicode_emoji',
  user_id: userId,
});
const party: Reaction = { emoji_name: 'party_parrot', emoji_code: '7', reaction_type: 'realm_emoji', user_id: 2 };

t.test('reactions group by emoji type and code, in the order they first appeared', async (t) => {
  const groups = groupReactions([thumbs(2), party, thumbs(3, '+1')], 1);
  t.strictSame(
    groups.map((group) => [group.emojiName, group.userIds]),
    [
      ['thumbs_up', [2, 3]],
      ['party_parrot', [2]],
    ],
    'two names of one emoji count as one group, named by its first reaction',
  );
});

t.test('a group knows whether I reacted', async (t) => {
  const [mine, theirs] = groupReactions([thumbs(1), party], 1);
  t.equal(mine?.mine, true);
  t.equal(theirs?.mine, false);
});

t.test('the same person reacting twice is counted once', async (t) => {
  const [group] = groupReactions([thumbs(2), thumbs(2)], 1);
  t.equal(group?.userIds.length, 1);
});

t.test('a reaction button is named like thumbs_up: 1', async (t) => {
  const [group] = groupReactions([thumbs(2)], 1);
  t.ok(group);
  if (group) t.equal(reactionLabel(group), 'thumbs_up: 1');
});

t.test('the title lists who reacted by full name', async (t) => {
  const [group] = groupReactions([thumbs(2), thumbs(9)], 1);
  const users = new Map([[2, user(2, { full_name: 'Ada Lovelace' })]]);
  t.ok(group);
  if (group) t.equal(reactionTitle(group, users), 'Ada Lovelace, Unknown user reacted with :thumbs_up:');
});

t.test('clicking a group I reacted to removes my reaction, otherwise adds it', async (t) => {
  const [mine] = groupReactions([thumbs(1)], 1);
  const [theirs] = groupReactions([party], 1);
  t.ok(mine && theirs);
  if (!mine || !theirs) return;
  t.strictSame(toggleRequest(5, mine), {
    method: 'delete',
    path: '/messages/5/reactions',
    params: { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' },
  });
  t.equal(toggleRequest(5, theirs).method, 'post');
  t.strictSame(toggleRequest(5, theirs).params, { emoji_name: 'party_parrot', emoji_code: '7', reaction_type: 'realm_emoji' });
});

t.test(
  'unicode emoji show as their image in the emoji set, as characters in the text set; custom emoji as their image, unknown ones by name',
  async (t) => {
    const realmEmoji = {
      '7': { id: '7', name: 'party_parrot', source_url: '/user_avatars/2/emoji/images/7.png', deactivated: false, author_id: 2 },
    };
    t.strictSame(emojiLook('unicode_emoji', '1f44d', 'thumbs_up', realmEmoji, 'text'), { kind: 'text', text: '👍' });
    const modern = emojiLook('unicode_emoji', '1f44d', 'thumbs_up', realmEmoji, 'vendora');
    t.equal(modern.kind, 'image');
    t.match(modern.kind === 'image' ? modern.url : '', /^\/static\/emoji\/vendora-[\d.]+\/1f44d\.png$/, 'the modern set image');
    t.strictSame({ ...modern, url: '' }, { kind: 'image', url: '', alt: '👍', fallbackText: '👍' });
    const classic = emojiLook('unicode_emoji', '1f44d', 'thumbs_up', realmEmoji, 'vendora-blob');
    t.strictSame(classic, modern, 'the classic set, which has no package, shows the modern one');
    const alternative = emojiLook('unicode_emoji', '1f44d', 'thumbs_up', realmEmoji, 'vendorb');
    t.match(
      alternative.kind === 'image' ? alternative.url : '',
      /^\/static\/emoji\/vendorb-[\d.]+\/1f44d\.png$/,
      'the alternative set image',
    );
    t.strictSame(emojiLook('realm_emoji', '7', 'party_parrot', realmEmoji, 'vendora'), {
      kind: 'image',
      url: '/user_avatars/2/emoji/images/7.png',
      alt: ':party_parrot:',
    });
    t.strictSame(emojiLook('realm_emoji', '8', 'gone', realmEmoji, 'vendora'), { kind: 'name', text: ':gone:' });
  },
);
