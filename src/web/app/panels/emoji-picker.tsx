/**
 * The emoji picker: a search box over the choices (buttons named by emoji name), arrow keys
 * to move, Enter to pick, Escape to close. The caller returns focus to what opened it.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ChatSnapshot } from '../../common/types';
import { fitInViewport } from './ui';
import { allChoices, filterChoices, type EmojiChoice } from './picker';
import { emojiLook, type EmojiLook } from './reactions';

/** How many buttons a row of the grid holds (panels.css lays it out with the same count). */
const COLUMNS = 8;

export function EmojiGlyph({ look }: { look: EmojiLook }) {
  // An image the set lacks (an emoji newer than its package) shows as characters instead.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const text = look.kind === 'image' ? (failedUrl === look.url ? look.fallbackText : undefined) : look.text;
  // The control around it carries the name; the alt text is for copying the text out.
  if (look.kind === 'image' && text === undefined) {
    const fails = look.fallbackText === undefined ? undefined : () => setFailedUrl(look.url);
    return <img class="emoji-image" src={look.url} alt={look.alt} aria-hidden="true" onError={fails} />;
  }
  return (
    <span class="emoji-glyph" aria-hidden="true">
      {text}
    </span>
  );
}

interface EmojiPickerProps {
  snapshot: ChatSnapshot;
  onPick: (choice: EmojiChoice) => void;
  onClose: () => void;
  label?: string;
}

export function EmojiPicker({ snapshot, onPick, onClose, label }: EmojiPickerProps) {
  const [query, setQuery] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  const choices = useMemo(() => allChoices(snapshot.realmEmoji), [snapshot.realmEmoji]);
  const shown = useMemo(() => filterChoices(choices, query), [choices, query]);

  useEffect(() => {
    fitInViewport(root.current);
    search.current?.focus();
    // A click anywhere else closes the picker, as a menu would; the picker's parent holds the
    // button that opened it, whose own click toggles it.
    const onPointerDown = (event: PointerEvent) => {
      const area = root.current?.parentElement ?? root.current;
      if (area && event.target instanceof Node && !area.contains(event.target)) close.current();
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => document.removeEventListener('pointerdown', onPointerDown, true);
  }, []);

  const buttons = () => [...(root.current?.querySelectorAll<HTMLButtonElement>('.emoji-choice') ?? [])];
  const moveFocus = (from: number, step: number) => {
    const all = buttons();
    const target = Math.max(0, Math.min(all.length - 1, from + step));
    all[target]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
      return;
    }
    const all = buttons();
    const index = all.findIndex((button) => button === document.activeElement);
    const inSearch = document.activeElement === search.current;
    if (inSearch) {
      if (event.key === 'ArrowDown') {
        event.preventDefault();
        all[0]?.focus();
      } else if (event.key === 'Enter') {
        event.preventDefault();
        const first = shown[0];
        if (first) onPick(first);
      }
      return;
    }
    if (index < 0) return;
    const steps: Record<string, number> = {
      ArrowRight: 1,
      ArrowLeft: -1,
      ArrowDown: COLUMNS,
      ArrowUp: -COLUMNS,
      Home: -index,
      End: all.length,
    };
    const step = steps[event.key];
    if (step === undefined) return;
    event.preventDefault();
    if (event.key === 'ArrowUp' && index < COLUMNS) search.current?.focus();
    else moveFocus(index, step);
  };

  return (
    <div ref={root} class="emoji-picker" role="dialog" aria-label={label ?? 'Emoji picker'} onKeyDown={onKeyDown}>
      <input
        ref={search}
        type="search"
        class="emoji-search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        value={query}
        onInput={(event) => setQuery(event.currentTarget.value)}
      />
      <div class="emoji-choices" role="group" aria-label="Emoji">
        {shown.map((choice) => (
          <button
            key={`${choice.reactionType}:${choice.code}`}
            type="button"
            class="emoji-choice"
            aria-label={choice.name}
            title={`:${choice.name}:`}
            onClick={() => onPick(choice)}
          >
            <EmojiGlyph
              look={emojiLook(choice.reactionType, choice.code, choice.name, snapshot.realmEmoji, snapshot.userSettings['emojiset'])}
            />
          </button>
        ))}
        {shown.length === 0 && <p class="panel-muted">No emoji match.</p>}
      </div>
    </div>
  );
}
