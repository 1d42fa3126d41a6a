/**
 * Reads the public API's emoji name set (for generate-tables.ts): which names it gives each
 * Unicode emoji, canonical first. Its projects publish the mapping as a Python literal, one entry
 * a line, keyed either by code or by canonical name:
 *
 *   "1f44d": {"canonical_name": "+1", "aliases": ["thumbs_up"]},
 *   "+1": {'code': '1f44d', 'aliases': ['thumbs_up', 'like']},
 *
 * Only the data is read; lines of any other shape are ignored.
 */
const ENTRY =
  /^\s*["']([^"']+)["']\s*:\s*\{\s*["'](code|canonical_name)["']\s*:\s*["']([^"']+)["']\s*,\s*["']aliases["']\s*:\s*\[([^\]]*)\]/;
const QUOTED = /["']([^"']+)["']/g;

/**
 * Names the public API accepted in earlier versions of its name set and clients still send
 * (`:slight_smile:` became `:smile:`); kept as aliases.
 */
const LEGACY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  '1f642': ['slight_smile'],
};

/** code (dash-separated lowercase hex) -> [canonical name, ...aliases]. */
export function readApiEmojiNames(text: string): Map<string, string[]> {
  const namesByCode = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = ENTRY.exec(line);
    if (!match) continue;
    const [, key = '', form, value = '', aliasList = ''] = match;
    const code = (form === 'code' ? value : key).toLowerCase();
    const canonical = form === 'code' ? key : value;
    const aliases = [...aliasList.matchAll(QUOTED)].map((m) => m[1] ?? '');
    namesByCode.set(code, [canonical, ...aliases]);
  }
  for (const [code, aliases] of Object.entries(LEGACY_ALIASES)) {
    const names = namesByCode.get(code);
    if (names) names.push(...aliases.filter((alias) => !names.includes(alias)));
  }
  return namesByCode;
}
