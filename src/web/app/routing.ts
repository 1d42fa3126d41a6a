/** The open view lives in the location hash, so links, back, and reload all work. */
import { parseHash, toHash, type Narrow } from '../state/narrow';

export function currentNarrow(): Narrow {
  return parseHash(location.hash) ?? { kind: 'all' };
}

export function go(narrow: Narrow): void {
  const hash = toHash(narrow);
  if (location.hash !== hash) location.hash = hash;
}
