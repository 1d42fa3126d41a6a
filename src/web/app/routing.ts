/** The open view lives in the location hash, so links, back, and reload all work. */
import { parseHash, sameNarrow, toHash, withoutMe, type Narrow } from '../state/narrow';

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
export function showInAddress(narrow: Narrow, before: Narrow, myId: number | undefined): void {
  const hash = addressRewrite(parseHash(location.hash), before, narrow, myId);
  if (hash !== null) history.replaceState(history.state, '', hash);
}

/**
 * The hash that replaces the address when the view went from `before` to `now`, or null. Only an
 * address that still shows the view being left (or names `now` with me in it) is rewritten: an
 * effect runs after the page has painted, and by then a click may already have moved the
 * address on to the next view, whose history entry must stay as it is.
 */
export function addressRewrite(shown: Narrow | null, before: Narrow, now: Narrow, myId: number | undefined): string | null {
  if (shown === null || sameNarrow(shown, now)) return null;
  const stillBefore = sameNarrow(shown, before);
  const namesNowWithMe = myId !== undefined && sameNarrow(withoutMe(shown, myId), now);
  return stillBefore || namesNowWithMe ? toHash(now) : null;
}
