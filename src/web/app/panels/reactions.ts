/**
 * A message's reactions as the bar shows them: one group per emoji (its type and code, since
 * two names can mean the same emoji), in the order they first appeared.
 */
import { emojiImageUrl, emojiText } from '../../common/emoji';
import type { ChatSnapshot, Reaction } from '../../common/types';
import type { Params } from '../../common/api';

export interface ReactionGroup {
  key: string;
  emojiName: string;
  emojiCode: string;
  reactionType: Reaction['reaction_type'];
  userIds: number[];
  mine: boolean;
}

export function groupReactions(reactions: readonly Reaction[], myId: number): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const reaction of reactions) {
    const key = `${reaction.reaction_type}:${reaction.emoji_code}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        emojiName: reaction.emoji_name,
        emojiCode: reaction.emoji_code,
        reactionType: reaction.reaction_type,
        userIds: [],
        mine: false,
      };
      groups.set(key, group);
    }
    if (group.userIds.includes(reaction.user_id)) continue;
    group.userIds.push(reaction.user_id);
    if (reaction.user_id === myId) group.mine = true;
  }
  return [...groups.values()];
}

/** The button's accessible name, which tests and screen readers rely on: `thumbs_up: 1`. */
export function reactionLabel(group: ReactionGroup): string {
  return `${group.emojiName}: ${group.userIds.length}`;
}

/** Who reacted, by full name (someone the page does not know is still counted). */
export function reactionTitle(group: ReactionGroup, users: ChatSnapshot['users']): string {
  const names = group.userIds.map((id) => users.get(id)?.full_name ?? 'Unknown user');
  return `${names.join(', ')} reacted with :${group.emojiName}:`;
}

/**
 * What an emoji shows as: a unicode emoji as its image in the person's emoji set (its characters
 * when the set is `text`, or when the image fails to load), a custom one as its image.
 */
export type EmojiLook =
  { kind: 'text'; text: string } | { kind: 'image'; url: string; alt: string; fallbackText?: string } | { kind: 'name'; text: string };

export function emojiLook(
  reactionType: string,
  emojiCode: string,
  emojiName: string,
  realmEmoji: ChatSnapshot['realmEmoji'],
  emojiset: unknown,
): EmojiLook {
  if (reactionType === 'unicode_emoji' && /^[0-9a-f]+(-[0-9a-f]+)*$/.test(emojiCode)) {
    const text = emojiText(emojiCode);
    const url = emojiImageUrl(emojiCode, emojiset);
    return url === null ? { kind: 'text', text } : { kind: 'image', url, alt: text, fallbackText: text };
  }
  const custom = reactionType === 'realm_emoji' ? realmEmoji[emojiCode] : undefined;
  if (custom) return { kind: 'image', url: custom.source_url, alt: `:${emojiName}:` };
  return { kind: 'name', text: `:${emojiName}:` };
}

/** The request that toggles my vote for a group: remove it when I reacted, add it otherwise. */
export function toggleRequest(messageId: number, group: ReactionGroup): { method: 'post' | 'delete'; path: string; params: Params } {
  return {
    method: group.mine ? 'delete' : 'post',
    path: `/messages/${messageId}/reactions`,
    params: { emoji_name: group.emojiName, emoji_code: group.emojiCode, reaction_type: group.reactionType },
  };
}
