/** Realm emoji reads (openapi get-custom-emoji) and the realm's policy for adding them. */
import { POLICY } from '../lib/policy';
import type { Realm } from '../realm';
import { realmSettingsText } from './realm-settings';

/**
 * A realm emoji's image URL: `source_url` in register and events, and the `src` rendered messages
 * carry, so the two agree (served by GET /user_avatars/{realm_id}/emoji/images/{file}).
 */
export function realmEmojiUrl(fileName: string): string {
  return `/user_avatars/1/emoji/images/${fileName}`;
}

/** Where an animated emoji's first frame is kept: `<emoji id>.png`, named by its `still_url`. */
export function emojiStillKey(fileName: string): string {
  return `emoji/still/${fileName}`;
}

/** An animated realm emoji's `still_url` (openapi RealmEmoji: null for a still image). */
export function realmEmojiStillUrl(emojiId: number): string {
  return `/user_avatars/1/emoji/images/still/${emojiId}.png`;
}

export interface RealmEmojiRow {
  id: number;
  name: string;
  file_name: string;
  author_id: number | null;
  deactivated: number;
}

export function activeEmojiByName(realm: Realm, name: string): RealmEmojiRow | undefined {
  return realm
    .rows<RealmEmojiRow, [string]>(
      'SELECT id, name, file_name, author_id, deactivated FROM realm_emoji WHERE name = ? AND deactivated = 0 ORDER BY id LIMIT 1',
    )
    .get(name);
}

/** One setting of the realm row's `settings` JSON (the org slice stores them there), or its default. */
function realmSetting(realm: Realm, name: string): unknown {
  return (JSON.parse(realmSettingsText(realm)) as Record<string, unknown>)[name];
}

/** `add_custom_emoji_policy` with the public API's default (members). */
export function addCustomEmojiPolicy(realm: Realm): number {
  const value = realmSetting(realm, 'add_custom_emoji_policy');
  return typeof value === 'number' ? value : POLICY.MEMBERS;
}

/** `avatar_changes_disabled` with the public API's default (false). */
export function avatarChangesDisabled(realm: Realm): boolean {
  return realmSetting(realm, 'avatar_changes_disabled') === true;
}
