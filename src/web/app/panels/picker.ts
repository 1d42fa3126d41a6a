/**
 * The emoji picker's choices: the realm's custom emoji, then the server's table, named as a
 * person reads them (`thumbs_up`) and found by any of their names.
 */
import { emojiList } from '../../common/emoji';
import type { ChatSnapshot, Reaction } from '../../common/types';

export interface EmojiChoice {
  /** The name the picker shows and a reaction is sent with. */
  name: string;
  code: string;
  reactionType: Reaction['reaction_type'];
  /** Every name it is found by. */
  names: readonly string[];
  imageUrl?: string;
}

/** Rendering every emoji makes the picker slow to open; a search narrows the rest. */
export const PICKER_LIMIT = 200;

export function allChoices(realmEmoji: ChatSnapshot['realmEmoji']): EmojiChoice[] {
  const choices: EmojiChoice[] = [];
  for (const emoji of Object.values(realmEmoji)) {
    if (emoji.deactivated) continue;
    choices.push({ name: emoji.name, code: emoji.id, reactionType: 'realm_emoji', names: [emoji.name], imageUrl: emoji.source_url });
  }
  choices.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of emojiList()) {
    choices.push({ name: entry.displayName, code: entry.code, reactionType: 'unicode_emoji', names: [entry.name, ...entry.aliases] });
  }
  return choices;
}

/** What a person types (`Thumbs up`) as emoji names spell it (`thumbs_up`). */
export function normalizeQuery(query: string): string {
  return query
    .trim()
    .toLowerCase()
    .replace(/^:|:$/g, '')
    .replace(/[\s-]+/g, '_');
}

/**
 * The choices matching a search: one named exactly so first, then those with a name starting
 * with it, then those containing it; with no search, the first ones. At most `limit`, so the
 * list stays cheap to render.
 */
export function filterChoices(choices: readonly EmojiChoice[], query: string, limit: number = PICKER_LIMIT): EmojiChoice[] {
  const wanted = normalizeQuery(query);
  if (wanted === '') return choices.slice(0, limit);
  const exact: EmojiChoice[] = [];
  const starting: EmojiChoice[] = [];
  const containing: EmojiChoice[] = [];
  for (const choice of choices) {
    if (choice.names.includes(wanted)) exact.push(choice);
    else if (choice.names.some((name) => name.startsWith(wanted))) starting.push(choice);
    else if (choice.names.some((name) => name.includes(wanted))) containing.push(choice);
    if (starting.length >= limit) break;
  }
  return [...exact, ...starting, ...containing].slice(0, limit);
}
