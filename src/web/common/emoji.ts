import { EMOJI_IMAGE_BASES } from 'virtual:emoji-images';
import { EMOJI_TABLE } from 'virtual:emoji-table';

export interface EmojiEntry {
  /** Canonical name, as reactions and `:name:` use it. */
  name: string;
  /** Dash-separated hex code points (`1f44d`, `1f1e6-1f1e8`). */
  code: string;
  aliases: readonly string[];
  /** The name a person reads and a picker offers: the first one made of words (`+1` → `thumbs_up`). */
  displayName: string;
}

let entries: EmojiEntry[] | null = null;
let byName: Map<string, EmojiEntry> | null = null;

/** The server's emoji, in its table's order (parsed on first use). */
export function emojiList(): readonly EmojiEntry[] {
  if (entries) return entries;
  entries = [];
  for (const line of EMOJI_TABLE.split('\n')) {
    const [code, name, ...aliases] = line.trim().split(' ');
    if (!code || !name) continue;
    const displayName = [name, ...aliases].find((candidate) => /^[a-z][a-z0-9_]*$/.test(candidate)) ?? name;
    entries.push({ code, name, aliases, displayName });
  }
  return entries;
}

/** Any name of an emoji (canonical or alias) to its entry. */
export function emojiByName(name: string): EmojiEntry | undefined {
  if (!byName) {
    byName = new Map();
    for (const entry of emojiList()) for (const alias of [entry.name, ...entry.aliases]) if (!byName.has(alias)) byName.set(alias, entry);
  }
  return byName.get(name);
}

/** The characters of a unicode emoji code (`1f44d` → 👍). */
export function emojiText(code: string): string {
  return String.fromCodePoint(...code.split('-').map((hex) => Number.parseInt(hex, 16)));
}

/**
 * The URL of a unicode emoji's image in the person's `emojiset` (SPEC PATCH /settings), or null
 * when the set is `text` (the system's emoji font draws it) or has no images on this server.
 * The registry has no package for the classic set at this version, so it shows the modern one.
 */
export function emojiImageUrl(code: string, emojiset: unknown): string | null {
  if (emojiset === 'text') return null;
  const set = emojiset === 'vendora-blob' || typeof emojiset !== 'string' ? 'vendora' : emojiset;
  const base = EMOJI_IMAGE_BASES[set] ?? EMOJI_IMAGE_BASES['vendora'];
  return base === undefined ? null : `${base}${code}.png`;
}
