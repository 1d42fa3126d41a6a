/**
 * The page's emoji images: one 64-pixel PNG per emoji, from the emoji image packages of the npm
 * registry (the image sets the public API's own page ships), served under
 * `/static/emoji/<set>-<package version>/<code>.png`. The version in the path lets a year's
 * `immutable` cache hold until the package is upgraded. Files are read from the package on first
 * request and kept (at most a set's ~20 MB), so a server that never shows an emoji reads none.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The `emojiset` values (SPEC PATCH /settings) that have images, and the package that draws each. */
export const EMOJI_IMAGE_SETS = {
  vendora: { packageName: 'emoji-datasource-google', imageDir: 'img/google/64' },
  vendorb: { packageName: 'emoji-datasource-twitter', imageDir: 'img/twitter/64' },
} as const;

export type EmojiImageSetName = keyof typeof EMOJI_IMAGE_SETS;

export const EMOJI_URL_PREFIX = '/static/emoji/';

/** A set's URL segment (`vendora-16.0.0`), or null when its package is not installed. */
export function emojiSetSegment(set: EmojiImageSetName): string | null {
  const dir = packageDir(set);
  if (dir === null) return null;
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
  return `${set}-${version}`;
}

function packageDir(set: EmojiImageSetName): string | null {
  try {
    return dirname(require.resolve(`${EMOJI_IMAGE_SETS[set].packageName}/package.json`));
  } catch {
    return null;
  }
}

interface ImageSet {
  dir: string;
  /** Emoji code (as the server writes it, `2764`) → file name (the package's, `2764-fe0f.png`). */
  files: Map<string, string>;
  loaded: Map<string, Buffer>;
}

export class EmojiImages {
  private readonly sets = new Map<string, ImageSet>();

  constructor() {
    for (const set of Object.keys(EMOJI_IMAGE_SETS) as EmojiImageSetName[]) {
      const segment = emojiSetSegment(set);
      const root = packageDir(set);
      if (segment === null || root === null) continue;
      const dir = join(root, EMOJI_IMAGE_SETS[set].imageDir);
      if (!existsSync(dir)) continue;
      const files = new Map<string, string>();
      for (const name of readdirSync(dir)) {
        if (!name.endsWith('.png')) continue;
        const code = name.slice(0, -'.png'.length);
        files.set(code, name);
        // The packages name fully qualified sequences (with U+FE0F); the server's codes omit it.
        const unqualified = code
          .split('-')
          .filter((part) => part !== 'fe0f')
          .join('-');
        if (!files.has(unqualified)) files.set(unqualified, name);
      }
      this.sets.set(segment, { dir, files, loaded: new Map() });
    }
  }

  /** The PNG for `/static/emoji/<segment>/<code>.png`, or null when there is none. */
  image(url: string): Buffer | null {
    const match = /^\/static\/emoji\/([\w.-]+)\/([0-9a-f]+(?:-[0-9a-f]+)*)\.png$/.exec(url);
    const set = match ? this.sets.get(match[1] ?? '') : undefined;
    const file = set?.files.get(match?.[2] ?? '');
    if (set === undefined || file === undefined) return null;
    let bytes = set.loaded.get(file);
    if (bytes === undefined) {
      bytes = readFileSync(join(set.dir, file));
      set.loaded.set(file, bytes);
    }
    return bytes;
  }
}
