import type { Realm } from '../realm';

export function alertWordsOf(realm: Realm, userId: number): string[] {
  return realm
    .rows<{ word: string }, [number]>('SELECT word FROM alert_words WHERE user_id = ? ORDER BY id')
    .all(userId)
    .map((r) => r.word);
}
