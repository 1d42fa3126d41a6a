import type { Realm } from '../realm';

export function alertWordsOf(realm: Realm, userId: number): string[] {
  return (realm.stmt('SELECT word FROM alert_words WHERE user_id = ? ORDER BY id').all(userId) as { word: string }[]).map((r) => r.word);
}
