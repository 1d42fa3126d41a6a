/**
 * `:emoji` and `@mention` completion in the compose box: the word being typed at the caret,
 * the choices for it, and the text once a choice is taken. DOM-free, so it is unit-tested.
 */
import type { EmojiEntry } from '../common/emoji';
import type { User } from '../common/types';

export interface CompletionQuery {
  kind: 'emoji' | 'mention';
  /** Where the `:` or `@` is. */
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

const QUERY = /(?:^|[\s(])([:@])([\p{L}\p{N}_+\- .]*)$/u;

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
  // Names have spaces, but not two in a row nor a trailing one after a finished mention.
  if (/\s\s|^\s/.test(text) || text.length > 40) return null;
  return { kind: 'mention', start, text };
}

export function emojiChoices(text: string, emoji: readonly EmojiEntry[], limit = 8): Choice[] {
  const wanted = text.toLowerCase();
  const starts: Choice[] = [];
  const contains: Choice[] = [];
  for (const entry of emoji) {
    const names = [entry.displayName, entry.name, ...entry.aliases];
    const name = names.find((candidate) => candidate.startsWith(wanted)) ?? names.find((candidate) => candidate.includes(wanted));
    if (!name) continue;
    const choice = { label: name, insert: `:${name}: `, code: entry.code };
    (name.startsWith(wanted) ? starts : contains).push(choice);
    if (starts.length >= limit) break;
  }
  return [...starts, ...contains].slice(0, limit);
}

export function mentionChoices(text: string, users: Iterable<User>, limit = 8): Choice[] {
  const wanted = text.toLowerCase();
  const choices: Choice[] = [];
  for (const user of users) {
    if (!user.is_active) continue;
    const name = user.full_name.toLowerCase();
    if (!(
      name.startsWith(wanted) ||
      name.split(/\s+/).some((word) => word.startsWith(wanted)) ||
      user.email.toLowerCase().startsWith(wanted)
    ))
      continue;
    choices.push({ label: user.full_name, insert: `@**${user.full_name}** ` });
    if (choices.length >= limit) break;
  }
  return choices;
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
