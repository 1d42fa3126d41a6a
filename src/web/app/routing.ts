/** The open view lives in the location hash, so links, back, and reload all work. */
import { parseHash, sameNarrow, toHash, type Narrow } from '../state/narrow';

export function currentNarrow(): Narrow {
  return parseHash(location.hash) ?? { kind: 'all' };
}

export function go(narrow: Narrow): void {
  const hash = toHash(narrow);
  if (location.hash !== hash) location.hash = hash;
}

/**
 * The view changed by itself (its topic was moved, or the address named me in a conversation):
 * the address is rewritten in place, so Back does not return to the old, empty view.
 */
export function showInAddress(narrow: Narrow): void {
  const shown = parseHash(location.hash);
  if (shown !== null && !sameNarrow(shown, narrow)) history.replaceState(history.state, '', toHash(narrow));
}
