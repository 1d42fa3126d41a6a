/**
 * `:emoji`, `@mention` and `#stream` completion in the compose box: the word being typed at the caret,
 * the choices for it, and the text once a choice is taken. DOM-free, so it is unit-tested.
 */
import type { EmojiEntry } from '../common/emoji';
import type { Stream, User } from '../common/types';

export interface CompletionQuery {
  kind: 'emoji' | 'mention' | 'stream';
  /** Where the `:`, `@` or `#` is. */
  start: number;
  text: string;
}

export interface Choice {
  /** What the listbox shows. */
  label: string;
  /** What replaces the query. */
  insert: string;
  /** An emoji's code points, to show the emoji beside its name. */
  code?: string;
}

const QUERY = /(?:^|[\s(])([:@#])([\p{L}\p{N}_+\- .]*)$/u;

export function queryAt(value: string, caret: number): CompletionQuery | null {
  const match = QUERY.exec(value.slice(0, caret));
  if (!match) return null;
  const sigil = match[1];
  const text = match[2] ?? '';
  const start = caret - text.length - 1;
  if (sigil === ':') {
    // Emoji names have no spaces, and `:` alone or after a word is punctuation, not a query.
    if (text.length < 2 || /[\s.]/.test(text)) return null;
    return { kind: 'emoji', start, text };
  }
  if (sigil === '#') {
    // `# ` starts a heading, not a stream link.
    if (text === '' || /^\s|\s\s/.test(text) || text.length > 60) return null;
    return { kind: 'stream', start, text };
  }
  // Names have spaces, but not two in a row nor a trailing one after a finished mention.
  if (/\s\s|^\s/.test(text) || text.length > 40) return null;
  return { kind: 'mention', start, text };
}

/**
 * How well a name matches what was typed, best first: the exact name, then a name starting with
 * it, then one with a word starting with it, then one containing it; null for no match.
 */
export function matchRank(name: string, wanted: string): number | null {
  const lower = name.toLowerCase();
  if (lower === wanted) return 0;
  if (lower.startsWith(wanted)) return 1;
  if (lower.split(/[\s_-]+/).some((word) => word.startsWith(wanted))) return 2;
  return lower.includes(wanted) ? 3 : null;
}

/** The best `limit` choices, by rank, then in the order they were given. */
function best(ranked: { rank: number; choice: Choice }[], limit: number): Choice[] {
  return ranked
    .map((entry, index) => ({ ...entry, index }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .slice(0, limit)
    .map((entry) => entry.choice);
}

export function emojiChoices(text: string, emoji: readonly EmojiEntry[], limit = 8): Choice[] {
  const wanted = text.toLowerCase();
  const ranked: { rank: number; choice: Choice }[] = [];
  for (const entry of emoji) {
    let found: { rank: number; name: string } | null = null;
    for (const name of [entry.displayName, entry.name, ...entry.aliases]) {
      const rank = matchRank(name, wanted);
      if (rank !== null && (found === null || rank < found.rank)) found = { rank, name };
    }
    if (found) ranked.push({ rank: found.rank, choice: { label: found.name, insert: `:${found.name}: `, code: entry.code } });
  }
  return best(ranked, limit);
}

export function mentionChoices(text: string, users: Iterable<User>, limit = 8): Choice[] {
  const wanted = text.toLowerCase();
  const ranked: { rank: number; choice: Choice }[] = [];
  for (const user of users) {
    if (!user.is_active) continue;
    const byName = matchRank(user.full_name, wanted);
    const rank = byName !== null && byName < 3 ? byName : user.email.toLowerCase().startsWith(wanted) ? 2 : null;
    if (rank !== null) ranked.push({ rank, choice: { label: user.full_name, insert: `@**${user.full_name}** ` } });
  }
  return best(ranked, limit);
}

export function streamChoices(text: string, streams: Iterable<Pick<Stream, 'name'>>, limit = 8): Choice[] {
  const wanted = text.toLowerCase();
  const ranked: { rank: number; choice: Choice }[] = [];
  for (const stream of streams) {
    const rank = matchRank(stream.name, wanted);
    if (rank !== null) ranked.push({ rank, choice: { label: stream.name, insert: `#**${stream.name}** ` } });
  }
  return best(ranked, limit);
}

/** The text with the query replaced by the choice, and where the caret goes. */
export function complete(value: string, caret: number, query: CompletionQuery, choice: Choice): { value: string; caret: number } {
  const before = value.slice(0, query.start) + choice.insert;
  return { value: before + value.slice(caret), caret: before.length };
}

/** A message the server has not rendered yet, shown as plain paragraphs while it is sent. */
export function echoHtml(text: string): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return escaped
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${paragraph.replace(/\n/g, '<br>')}</p>`)
    .join('');
}
