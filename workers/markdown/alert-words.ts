/**
 * Alert words (api-notes §g "has_alert_word"): a user's word matches case-insensitively where it
 * stands as a word of its own in the message source, i.e. between the start or end of the text,
 * whitespace, or common punctuation.
 */
const ALLOWED_BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
const ALLOWED_AFTER = new Set([' ', '\n', ')', '"', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

function occursAsWord(content: string, word: string): boolean {
  for (let at = content.indexOf(word); at >= 0; at = content.indexOf(word, at + 1)) {
    const before = at === 0 || ALLOWED_BEFORE.has(content[at - 1] ?? '');
    const end = at + word.length;
    const after = end === content.length || ALLOWED_AFTER.has(content[end] ?? '');
    if (before && after) return true;
  }
  return false;
}

/** Ids of the users with at least one alert word in `source`, in the map's order. */
export function usersWithAlertWords(source: string, alertWords: ReadonlyMap<number, readonly string[]> | undefined): number[] {
  if (alertWords === undefined || alertWords.size === 0) return [];
  const content = source.toLowerCase();
  const userIds: number[] = [];
  for (const [userId, words] of alertWords) {
    if (words.some((word) => word !== '' && occursAsWord(content, word.toLowerCase()))) userIds.push(userId);
  }
  return userIds;
}
