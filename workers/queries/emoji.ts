/**
 * Emoji resolution in a realm's three namespaces (SPEC "Emoji reaction types"), shared by
 * reactions and (later) user status. Rules as api-notes §b "POST /messages/{message_id}/reactions".
 */
import { REACTION_TYPES } from '../events/payload-fields';
import { errors } from '../lib/errors';
import { SERVICE_EXTRA_EMOJI_NAME, emojiCodeForName, emojiNameForCode } from '../markdown/emoji';
import type { Realm } from '../realm';
import type { RealmEmojiRow } from './realm-emoji';

// Declared beside the event schemas, which sit below the realm (no import cycle through it).
export { REACTION_TYPES };

export type ReactionType = (typeof REACTION_TYPES)[number];

export interface EmojiRef {
  emoji_code: string;
  reaction_type: ReactionType;
}

export function isReactionType(value: string): value is ReactionType {
  return (REACTION_TYPES as readonly string[]).includes(value);
}

/**
 * The emoji a bare name means: an active realm emoji first, then the built-in image emoji, then
 * the Unicode name table (api-notes Summary 16).
 */
export function emojiByName(realm: Realm, name: string): EmojiRef {
  const custom = realm
    .rows<{ id: number }, [string]>('SELECT id FROM realm_emoji WHERE name = ? AND deactivated = 0 ORDER BY id LIMIT 1')
    .get(name);
  if (custom) return { emoji_code: String(custom.id), reaction_type: 'realm_emoji' };
  if (name === SERVICE_EXTRA_EMOJI_NAME) return { emoji_code: name, reaction_type: 'service_extra_emoji' };
  const code = emojiCodeForName(name);
  if (code !== undefined) return { emoji_code: code, reaction_type: 'unicode_emoji' };
  throw errors.emojiDoesNotExist(name);
}

/** Is (name, code, type) a valid emoji for a new reaction in this realm? Throws if not. */
export function checkEmoji(realm: Realm, name: string, code: string, type: string): void {
  switch (type) {
    case 'realm_emoji': {
      const row = /^\d+$/.test(code)
        ? realm
            .rows<Pick<RealmEmojiRow, 'id' | 'name' | 'deactivated'>, [number]>(
              'SELECT id, name, deactivated FROM realm_emoji WHERE id = ?',
            )
            .get(Number(code))
        : undefined;
      if (!row) throw errors.invalidCustomEmoji();
      if (row.name !== name) throw errors.invalidCustomEmojiName();
      if (row.deactivated) throw errors.customEmojiDeactivated();
      return;
    }
    case 'service_extra_emoji':
      if (code !== SERVICE_EXTRA_EMOJI_NAME) throw errors.invalidEmojiCode();
      if (name !== code) throw errors.invalidEmojiName();
      return;
    case 'unicode_emoji':
      if (emojiNameForCode(code) === undefined) throw errors.invalidEmojiCode();
      if (emojiCodeForName(name) !== code) throw errors.invalidEmojiName();
      return;
    default:
      throw errors.invalidEmojiType();
  }
}
